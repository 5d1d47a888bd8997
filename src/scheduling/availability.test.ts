import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestOrg, type TestServer } from '../../test/helpers/server.js';
import { createAssignment, createQualifier, createRotation } from '../resources/rotations/test-fixtures.js';
import { createShift } from '../resources/shifts/test-fixtures.js';
import { countsAsWork, limitPeriods, limitReason, refusalMessage, spanText } from './availability.js';
import { createTimeOff } from '../resources/time-offs/test-fixtures.js';

/*
 * One definition of availability (docs/schedule.md, Availability): the same situation gives the
 * same reason on every path that asks whether a person may work then.
 */

describe('availability wording (unit)', () => {
  it('shows a span by its start, and its end as a time when it ends that day or by the next morning', () => {
    expect(spanText('2032-03-10 07:00:00', '2032-03-10 19:00:00')).toBe('2032-03-10 07:00–19:00');
    expect(spanText('2032-03-10 07:00:00', '2032-03-11 07:00:00')).toBe('2032-03-10 07:00–07:00');
    expect(spanText('2032-03-10 19:00:00', '2032-03-11 07:00:00')).toBe('2032-03-10 19:00–07:00');
    expect(spanText('2032-03-10 07:00:00', '2032-03-11 08:00:00')).toBe('2032-03-10 07:00–2032-03-11 08:00');
    expect(spanText('2032-03-10 00:00:00', '2032-03-13 00:00:00')).toBe('2032-03-10 00:00–2032-03-13 00:00');
    expect(spanText('2032-12-31 19:00:00', '2033-01-01 07:00:00')).toBe('2032-12-31 19:00–07:00');
  });

  it('words limits and refusals once', () => {
    expect(limitReason("the list's", 'weekly', 48, 48)).toEqual({
      kind: 'limit',
      text: "over the list's weekly limit: 48 of 48 h",
    });
    expect(refusalMessage('Jack Smith', 'this shift', 'lacks PM')).toBe('Jack Smith cannot take this shift: lacks PM.');
    expect(refusalMessage('Jack Smith', 'this trade', { kind: 'lacks', text: 'lacks FF-01, PM' })).toBe(
      'Jack Smith cannot take this trade: lacks FF-01, PM.',
    );
  });

  it('counts limits in the Monday week, the calendar month and year of the start', () => {
    expect(limitPeriods('2032-03-10 07:00:00')).toEqual({
      week: { start: '2032-03-08 00:00:00', end: '2032-03-15 00:00:00' },
      month: { start: '2032-03-01 00:00:00', end: '2032-04-01 00:00:00' },
      year: { start: '2032-01-01 00:00:00', end: '2033-01-01 00:00:00' },
    });
    expect(limitPeriods('2032-03-14 23:00:00').week).toEqual({
      start: '2032-03-08 00:00:00',
      end: '2032-03-15 00:00:00',
    });
  });

  it('decides once what counts as work', () => {
    expect(countsAsWork({ is_work_shift: 1 })).toBe(true);
    expect(countsAsWork({ is_work_shift: 0 })).toBe(false);
  });
});

const DATE = '2032-03-10';
const START = `${DATE} 07:00:00`;
const END = '2032-03-11 07:00:00';

let server: TestServer;
let org: TestOrg;
let admin: number;
let engine: number;
let ladder: number;
let medic: number;
let paramedic: number;
let vacation: number;
let listId: number;
let giver: number;

beforeAll(async () => {
  server = await startServer();
  org = await server.newOrg();
  const daily = { start: '2032-03-01 07:00:00', end: '2032-03-02 07:00:00' };
  engine = await createAssignment(org, { name: 'Engine 1', ...daily });
  ladder = await createAssignment(org, { name: 'Ladder 3', ...daily });
  paramedic = await createQualifier(org, 'Paramedic', 'PM');
  medic = await createAssignment(org, {
    name: 'Medic 2',
    ...daily,
    qualifiers_needed: [{ id: paramedic, minimum_staffing: 1 }],
  });
  admin = await org.createUser({ first_name: 'Battalion', last_name: 'Chief', role: 'Admin' });
  giver = await org.createUser({ first_name: 'Gus', last_name: 'Giver' });
  vacation = (await org.post('/time_off_types', { label: 'Vacation', work_code: 'VAC' })).body.id;
  const list = await org.post('/lists', { name: 'Overtime' });
  expect(list.status, list.text).toBe(201);
  listId = list.body.id;
});
afterAll(() => server.close());

async function shift(userId: number, assignmentId: number, start = START, end = END) {
  const response = await createShift(org, assignmentId, userId, start, end, {
    work_type_id: (await org.get('/work_types')).body[0].id,
  });
  return response;
}

/** A member of the overtime list, named. */
async function member(first: string, last: string): Promise<number> {
  const id = await org.createUser({ first_name: first, last_name: last });
  expect((await org.put(`/users/${id}/titles`, { ids: [listId] })).status).toBe(200);
  return id;
}

/** What each path answers for the person over START..END: the refusals and the skipped reasons. */
async function everyPath(userId: number, date = DATE) {
  const tryShift = await org.post('/shifts', {
    assignment_id: ladder,
    user_id: userId,
    date,
    start: `${date} 12:00:00`,
    end: `${date} 16:00:00`,
    work_type_id: (await org.get('/work_types')).body[0].id,
  });
  const trade = await org.post('/trades', {
    requesting_user: giver,
    start: `${date} 07:00:00`,
    end: `${nextDay(date)} 07:00:00`,
    accepting_user_id: userId,
    approving_user_id: admin,
  });
  const candidates = await org.get('/vacancies/candidates', { query: { assignment_id: ladder, date } });
  expect(candidates.status, candidates.text).toBe(200);
  const callback = await org.post('/callbacks', {
    list_id: listId,
    initiated_by: admin,
    assignment_id: ladder,
    start: `${date} 07:00:00`,
    end: `${nextDay(date)} 07:00:00`,
    positions_to_fill: 1,
    deadline: '2035-01-01T00:00:00+00:00',
  });
  expect(callback.status, callback.text).toBe(201);
  const skipped = (items: Array<{ user_id?: number; user?: { id: number }; reason: string }>) =>
    items.find((s) => (s.user_id ?? s.user?.id) === userId)?.reason;
  return {
    shift: [tryShift.status, tryShift.body.error_message],
    trade: [trade.status, trade.body.error_message],
    candidates: skipped(candidates.body.skipped),
    callback: skipped(callback.body.skipped),
  };
}

const nextDay = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

describe('the same situation gives the same reason on every path', () => {
  it('already working: POST /shifts, a trade, a series, the candidates and a callback', async () => {
    const busy = await member('Ann', 'Busy');
    await shift(busy, engine);
    await shift(giver, ladder);
    const reason = 'already working 2032-03-10 07:00–07:00 on Engine 1';
    expect(await everyPath(busy)).toEqual({
      shift: [422, [`Ann Busy cannot take this shift: ${reason}.`]],
      trade: [422, [`Ann Busy cannot take this trade: ${reason}.`]],
      candidates: reason,
      callback: reason,
    });
    const rotation = await createRotation(org, { anchor_date: DATE });
    const series = await org.post('/recurring_shifts', {
      user_id: busy,
      rotation_id: rotation,
      assignment_id: ladder,
      crew: 'A',
      start_date: DATE,
    });
    expect(series).toBeInvalid([`Ann Busy cannot take this series: ${reason}.`]);
  });

  it('on approved time off: POST /shifts, a trade, the candidates and a callback', async () => {
    const date = '2032-03-16';
    const away = await member('Ben', 'Away');
    await shift(giver, ladder, `${date} 07:00:00`, `${nextDay(date)} 07:00:00`);
    await createTimeOff(org, {
      userId: away,
      adminId: admin,
      start: `${date} 07:00:00`,
      end: `${nextDay(date)} 07:00:00`,
      typeId: vacation,
      status: 1,
    });
    const reason = `on approved Vacation ${date} 07:00–07:00`;
    expect(await everyPath(away, date)).toEqual({
      shift: [422, [`Ben Away cannot take this shift: ${reason}.`]],
      trade: [422, [`Ben Away cannot take this trade: ${reason}.`]],
      candidates: reason,
      callback: reason,
    });
  });

  it('lacking a qualifier: a trade of a qualified seat and the candidates of a seat short of it', async () => {
    const date = '2032-03-22';
    const basic = await member('Cara', 'Basic');
    const holder = await org.createUser({ first_name: 'Paula', last_name: 'Medic' });
    expect((await org.post(`/users/${holder}/qualifiers`, { id: paramedic })).status).toBeLessThan(300);
    await shift(holder, medic, `${date} 07:00:00`, `${nextDay(date)} 07:00:00`);
    const trade = await org.post('/trades', {
      requesting_user: holder,
      start: `${date} 07:00:00`,
      end: `${nextDay(date)} 07:00:00`,
      accepting_user_id: basic,
      approving_user_id: admin,
    });
    expect(trade).toBeInvalid(['Cara Basic cannot take this trade: lacks PM.']);
    const short = await org.get('/vacancies/candidates', { query: { assignment_id: medic, date: nextDay(date) } });
    expect(short.status, short.text).toBe(200);
    expect(short.body.skipped.find((s: { user: { id: number } }) => s.user.id === basic)?.reason).toBe('lacks PM');
  });
});
