import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { TestOrg } from '../../../test/helpers/server.js';
import { Temporal } from '../../core/time.js';
import { createAssignment, workTypeId } from '../rotations/test-fixtures.js';
import { createShift } from '../shifts/test-fixtures.js';
import { listWithMembers, runnerSuite } from '../callbacks/test-fixtures.js';
import { createForcedHireNotifier } from './notify.js';
import { ForcedHireWorker } from './worker.js';
import { createTimeOff } from '../time-offs/test-fixtures.js';

const suite = runnerSuite({ mail: true });

type Explained = { user_id: number; name: string; verdict: string; reason: string | null; last_forced: string | null };

async function member(org: TestOrg, groupId: number, first: string, hired: string): Promise<number> {
  const id = await org.createUser({
    first_name: first,
    last_name: 'Crew',
    date_of_hire: hired,
    mail: `${first}@ff.test`,
  });
  expect((await org.put(`/users/${id}/groups`, { ids: [groupId] })).status).toBe(200);
  return id;
}

async function timeOff(org: TestOrg, userId: number, adminId: number, typeId: number, start: string, end: string) {
  await createTimeOff(org, { userId, adminId, start, end, typeId, status: 1 });
}

const settings = (adminId: number, assignmentIds: number[], extra: Record<string, unknown> = {}) => ({
  enabled: false,
  start_within_hours: 12,
  time_off_buffer_hours: 12,
  long_tour_hours: 24,
  long_tour_buffer_hours: 24,
  initiated_by: adminId,
  assignment_ids: assignmentIds,
  ...extra,
});

describe('forced hire ordered by an admin', () => {
  let org: TestOrg;
  let adminId: number;
  let engine7: number;
  let engine9: number;
  let groupId: number;
  const crew: Record<'A' | 'B' | 'C' | 'D' | 'E', number> = { A: 0, B: 0, C: 0, D: 0, E: 0 };

  beforeAll(async () => {
    org = await suite.server.newOrg({ name: 'Forced Station' });
    adminId = await org.createUser({ first_name: 'Chief', last_name: 'Forced' });
    engine7 = await createAssignment(org, {
      name: 'Engine 7',
      start: '2032-04-10 07:00:00',
      end: '2032-04-11 07:00:00',
    });
    engine9 = await createAssignment(org, {
      name: 'Engine 9',
      start: '2032-05-01 07:00:00',
      end: '2032-05-02 07:00:00',
    });
    const engine8 = await createAssignment(org, {
      name: 'Engine 8',
      start: '2032-04-09 07:00:00',
      end: '2032-04-10 07:00:00',
      rrule: null,
    });
    groupId = (await org.post('/groups', { name: 'Station 7' })).body.id;
    crew.D = await member(org, groupId, 'Dana', '2000-01-01');
    crew.E = await member(org, groupId, 'Eli', '2001-01-01');
    crew.A = await member(org, groupId, 'Ash', '2003-01-01');
    crew.C = await member(org, groupId, 'Cam', '2005-01-01');
    crew.B = await member(org, groupId, 'Bo', '2010-01-01');
    const vacation = (await org.post('/time_off_types', { label: 'Vacation', work_code: 'VAC' })).body.id;
    // D worked a 24-hour tour ending at the vacancy's start: inside the long-tour buffer
    await createShift(org, engine8, crew.D, '2032-04-09 07:00:00', '2032-04-10 07:00:00', {
      work_type_id: await workTypeId(org),
    });
    // E is on leave during the vacancy: availability says so
    await timeOff(org, crew.E, adminId, vacation, '2032-04-10 00:00:00', '2032-04-12 00:00:00');
    // B was never forced but their leave ended 4 hours before the start (buffer 12 hours)
    await timeOff(org, crew.B, adminId, vacation, '2032-04-08 00:00:00', '2032-04-10 03:00:00');
  });

  it('PUT /groups/{id}/forced_list checks every field, then lists members in forced order', async () => {
    const bad = await org.put(`/groups/${groupId}/forced_list`, {
      ...settings(999999, [engine7, 999998]),
      enabled: true,
      last_forced: [{ user_id: adminId, last_forced: '2032-04-03 07:00:00' }],
    });
    expect(bad.status).toBe(422);
    expect(bad.body.error_message).toEqual([
      'The selected initiated by is invalid.',
      'The selected assignment id is invalid.',
      `The last forced user ids ${adminId} are not members of Station 7.`,
    ]);
    expect((await org.get(`/groups/${groupId}/forced_list`)).body).toMatchObject({
      enabled: false,
      assignment_ids: [],
    });
    expect((await org.put('/groups/999999/forced_list', settings(adminId, []))).status).toBe(404);

    const saved = await org.put(`/groups/${groupId}/forced_list`, {
      ...settings(adminId, [engine7, engine9]),
      last_forced: [
        { user_id: crew.A, last_forced: '2032-04-03 07:00:00' },
        { user_id: crew.C, last_forced: '2032-03-10' },
      ],
    });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body).toMatchObject({ time_off_buffer_hours: 12, assignment_ids: [engine7, engine9].sort() });
    // never forced first (by seniority), then the longest since last forced
    expect(saved.body.members.map((m: { user_id: number }) => m.user_id)).toEqual([
      crew.D,
      crew.E,
      crew.B,
      crew.C,
      crew.A,
    ]);
    expect(saved.body.members[3]).toMatchObject({ last_forced: '2032-03-10 00:00:00', date_of_hire: '2005-01-01' });
  });

  it('POST /forced_hires refuses bad input naming every field and writes nothing', async () => {
    const bad = await org.post('/forced_hires', {
      assignment_id: 999999,
      start: '2032-04-11 07:00:00',
      end: '2032-04-10 07:00:00',
      ordered_by: 999999,
    });
    expect(bad.status).toBe(422);
    expect(bad.body.error_message).toEqual([
      'The selected assignment id is invalid.',
      'The selected ordered by is invalid.',
      'The end must be after the start.',
      "No group's forced list covers assignment #999999: name the group (group id) or add the assignment to a " +
        'forced list.',
    ]);
    expect((await org.get('/forced_hires')).body.data).toEqual([]);
  });

  it('forces the least recently forced member outside the buffers, places the shift and tells them', async () => {
    const response = await org.post('/forced_hires', {
      assignment_id: engine7,
      start: '2032-04-10 07:00:00',
      end: '2032-04-11 07:00:00',
      ordered_by: adminId,
    });
    expect(response.status, response.text).toBe(201);
    const hire = response.body;
    expect(hire).toMatchObject({ status: 'forced', trigger: 'admin', user_id: crew.C, group_id: groupId });
    const order = hire.order as Explained[];
    expect(order.map((m) => [m.user_id, m.verdict])).toEqual([
      [crew.D, 'skipped'],
      [crew.E, 'skipped'],
      [crew.B, 'skipped'],
      [crew.C, 'forced'],
      [crew.A, 'not reached'],
    ]);
    expect(order[0].reason).toBe(
      'inside the long-tour buffer: worked 24 hours (2032-04-09 07:00 to 2032-04-10 07:00), a tour of 24 hours ' +
        'or more ended less than 24 hours before the start',
    );
    expect(order[1].reason).toBe('on approved Vacation 2032-04-10 00:00–2032-04-12 00:00');
    expect(order[2].reason).toBe(
      'inside the time-off buffer: approved Vacation time off ended 2032-04-10 03:00, less than 12 hours before ' +
        'the start',
    );
    expect(order[3]).toMatchObject({
      last_forced: '2032-03-10 00:00:00',
      reason: 'the first available outside the buffers (last forced 2032-03-10 00:00)',
    });
    expect(hire.reason).toContain(
      "an admin ordered a forced hire for the open vacancy; you are the first available on Station 7's",
    );
    // the rules it went by, kept with their SHA-256 (a record provable later)
    expect(hire.rules).toEqual({
      forced_list: {
        start_within_hours: 12,
        time_off_buffer_hours: 12,
        long_tour_hours: 24,
        long_tour_buffer_hours: 24,
      },
      organization: { timezone: org.timezone, fatigue_rules: expect.objectContaining({ max_consecutive_hours: null }) },
    });
    expect(hire.rules_hash).toBe(createHash('sha256').update(JSON.stringify(hire.rules)).digest('hex'));

    // the shift is placed at once
    const shift = await org.get(`/shifts/${hire.shift_id}`);
    expect(shift.status, shift.text).toBe(200);
    expect(JSON.stringify(shift.body)).toContain('2032-04-10 07:00');
    const vacancies = await org.get('/vacancies', {
      query: { start: '2032-04-10 07:00:00', end: '2032-04-10 08:00:00', assignment_ids: String(engine7) },
    });
    expect(vacancies.body).toEqual([]);

    // history and the last-forced date
    expect((await org.get(`/forced_hires/${hire.id}`)).body).toEqual(hire);
    // another organization's admin is answered as for a forced hire that does not exist, and reads none
    const other = await suite.server.newOrg({ name: 'Other Station' });
    const foreign = await other.get(`/forced_hires/${hire.id}`);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual((await other.get('/forced_hires/999999')).body);
    expect((await other.get('/forced_hires')).body.data).toEqual([]);
    const list = (await org.get(`/groups/${groupId}/forced_list`)).body;
    expect(list.members.map((m: { user_id: number }) => m.user_id)).toEqual([crew.D, crew.E, crew.B, crew.A, crew.C]);
    expect(list.members[4].last_forced).toBe('2032-04-10 07:00:00');

    // told on their channel, with the reason
    await vi.waitFor(() => expect(suite.mailsTo('Cam@ff.test')).toHaveLength(1), {
      timeout: 5000,
    });
    const mail = suite.mailsTo('Cam@ff.test')[0]!;
    // (the subject header is folded after the end date)
    expect(mail.subject).toMatch(/^Forced hire: you work Engine 7 2032-04-10 07:00 to 2032-04-11/);
    expect(mail.text).toContain('Why: Forced hire on Engine 7');
    // and the notice is a contact of the forced hire's record: each channel tried, the e-mail with its Message-ID
    const contacts = hire.contacts as Array<Record<string, unknown>>;
    expect(contacts.at(-1)).toEqual({
      channel: 'Email',
      at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      result: 'sent',
      receipt: expect.stringMatching(/^<.+@.+>$/),
      detail: null,
    });
    expect(contacts.slice(0, -1).every((c) => c.result === 'unavailable' && typeof c.detail === 'string')).toBe(true);
    const listed = (await org.get('/forced_hires')).body.data.find((h: { id: number }) => h.id === hire.id);
    expect(listed.contacts).toEqual(contacts);

    // the seat is taken: another order for it finds nothing open
    const again = await org.post('/forced_hires', {
      assignment_id: engine7,
      start: '2032-04-10 07:00:00',
      end: '2032-04-11 07:00:00',
      ordered_by: adminId,
    });
    expect(again).toBeInvalid([
      'Engine 7 has no open seat from 2032-04-10 07:00:00 to 2032-04-11 07:00:00: there is nobody to force.',
    ]);
  });

  it('50 parallel orders for one open seat: one forced hire, one shift', async () => {
    const body = {
      assignment_id: engine9,
      start: '2032-05-01 07:00:00',
      end: '2032-05-02 07:00:00',
      ordered_by: adminId,
    };
    const answers = await Promise.all(Array.from({ length: 50 }, () => org.post('/forced_hires', body)));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 422)).toHaveLength(49);
    const hires = (await org.get('/forced_hires', { query: { assignment_id: engine9 } })).body.data;
    expect(hires).toHaveLength(1);
    let shifts = 0;
    for (const userId of Object.values(crew)) {
      const listed = await org.get('/shifts', {
        query: { user_id: userId, start: '2032-05-01 00:00:00', end: '2032-05-03 00:00:00' },
      });
      expect(listed.status, listed.text).toBe(200);
      shifts += JSON.stringify(listed.body).split('2032-05-01 07:00').length - 1;
    }
    expect(shifts).toBe(1);
    expect(hires[0].shift_id).toEqual(expect.any(Number));
  });
});

describe('forced hire starting by itself', () => {
  let org: TestOrg;
  let ladder: number;
  let groupId: number;
  let first: number;
  let second: number;
  let adminId: number;
  let listId: number;

  beforeAll(async () => {
    org = await suite.server.newOrg({ name: 'Auto Forced' });
    adminId = await org.createUser({ first_name: 'Chief', last_name: 'Auto' });
    ladder = await createAssignment(org, {
      name: 'Ladder 4',
      start: '2032-06-10 07:00:00',
      end: '2032-06-11 07:00:00',
    });
    groupId = (await org.post('/groups', { name: 'Station 4' })).body.id;
    first = await member(org, groupId, 'Yael', '2001-01-01');
    second = await member(org, groupId, 'Zed', '2002-01-01');
    const volunteer = await org.createUser({ first_name: 'Vol', last_name: 'Unteer' });
    listId = await listWithMembers(org, 'Ladder overtime', [volunteer]);
    const callback = await org.post('/callbacks', {
      list_id: listId,
      initiated_by: adminId,
      assignment_id: ladder,
      start: '2032-06-10 07:00:00',
      end: '2032-06-11 07:00:00',
      positions_to_fill: 1,
      deadline: '2032-06-10 01:00:00',
    });
    expect(callback.status, callback.text).toBe(201);
    const saved = await org.put(`/groups/${groupId}/forced_list`, settings(adminId, [ladder], { enabled: true }));
    expect(saved.status, saved.text).toBe(200);
  });

  const instant = (local: string) =>
    Temporal.PlainDateTime.from(local).toZonedDateTime(org.timezone).toInstant().toString();
  const worker = () => {
    const { app } = suite.server;
    return new ForcedHireWorker(app.db, createForcedHireNotifier(app), app.log);
  };

  it('forces within N hours of the start once the callback ended unfilled; one hire from two workers', async () => {
    const [a, b] = [worker(), worker()];
    // 19 hours before: outside the 12-hour window
    expect(await a.runOnce(instant('2032-06-09T12:00'))).toEqual([]);
    // 7 hours before, but the callback's deadline (01:00) has not passed: it has not ended
    expect(await a.runOnce(instant('2032-06-10T00:00'))).toEqual([]);
    expect((await org.get('/forced_hires')).body.data).toEqual([]);

    const clock = instant('2032-06-10T03:00');
    const passes = await Promise.all([a.runOnce(clock), b.runOnce(clock), a.runOnce(clock), b.runOnce(clock)]);
    expect(passes.flat()).toHaveLength(1);
    expect(await a.runOnce(clock)).toEqual([]);
    const hires = (await org.get('/forced_hires')).body.data;
    expect(hires).toHaveLength(1);
    expect(hires[0]).toMatchObject({ status: 'forced', trigger: 'auto', user_id: first, assignment_id: ladder });
    expect(hires[0].callback_id).toEqual(expect.any(Number));
    expect(hires[0].reason).toContain(`the voluntary callback #${hires[0].callback_id} ended unfilled`);
    expect((await org.get(`/shifts/${hires[0].shift_id}`)).status).toBe(200);
    await Promise.all([a.stop(), b.stop()]);
  });

  it("records once that nobody could be forced, with each member's reason", async () => {
    const leave = (await org.post('/time_off_types', { label: 'Leave', work_code: 'LV' })).body.id;
    for (const userId of [first, second])
      await timeOff(org, userId, adminId, leave, '2032-06-20 00:00:00', '2032-06-22 00:00:00');
    const callback = await org.post('/callbacks', {
      list_id: listId,
      initiated_by: adminId,
      assignment_id: ladder,
      start: '2032-06-20 07:00:00',
      end: '2032-06-21 07:00:00',
      positions_to_fill: 1,
      deadline: '2032-06-20 01:00:00',
    });
    expect(callback.status, callback.text).toBe(201);
    const a = worker();
    const clock = instant('2032-06-20T03:00');
    const [id] = await a.runOnce(clock);
    expect(await a.runOnce(clock)).toEqual([]);
    const hire = (await org.get(`/forced_hires/${id}`)).body;
    expect(hire).toMatchObject({ status: 'nobody eligible', user_id: null, shift_id: null, trigger: 'auto' });
    expect(hire.order.map((m: Explained) => [m.user_id, m.verdict, m.reason])).toEqual([
      // Yael was forced on 2032-06-10: Zed, never forced, comes first now
      [second, 'skipped', 'on approved Leave 2032-06-20 00:00–2032-06-22 00:00'],
      [first, 'skipped', 'on approved Leave 2032-06-20 00:00–2032-06-22 00:00'],
    ]);
    expect(hire.reason).toBe(
      "Nobody on Station 4's forced list could be forced for Ladder 4 2032-06-20 07:00 to 2032-06-21 07:00: " +
        'Zed Crew: on approved Leave 2032-06-20 00:00–2032-06-22 00:00; ' +
        'Yael Crew: on approved Leave 2032-06-20 00:00–2032-06-22 00:00.',
    );
    await a.stop();
  });
});

describe('the forced list read now', () => {
  it('names the buffer each member is inside now; the next to be forced is the first outside one', async () => {
    const org = await suite.server.newOrg({ name: 'Forced Now' });
    const adminId = await org.createUser({ first_name: 'Chief', last_name: 'Now' });
    const groupId = (await org.post('/groups', { name: 'Station 2' })).body.id;
    const rested = await member(org, groupId, 'Rae', '2004-01-01');
    const back = await member(org, groupId, 'Bix', '2001-01-01');
    const vacation = (await org.post('/time_off_types', { label: 'Vacation', work_code: 'VAC' })).body.id;
    // Bix (the most senior, never forced: first in the order) came back from leave 3 hours ago
    const now = Temporal.Now.plainDateTimeISO(org.timezone).round({ smallestUnit: 'minute', roundingMode: 'floor' });
    const local = (t: Temporal.PlainDateTime) => t.toString().replace('T', ' ').slice(0, 16) + ':00';
    await timeOff(org, back, adminId, vacation, local(now.subtract({ hours: 27 })), local(now.subtract({ hours: 3 })));
    const saved = await org.put(`/groups/${groupId}/forced_list`, settings(adminId, []));
    expect(saved.status, saved.text).toBe(200);
    const list = (await org.get(`/groups/${groupId}/forced_list`)).body;
    expect(list.members.map((m: { user_id: number }) => m.user_id)).toEqual([back, rested]);
    expect(list.members[0].buffer).toMatch(
      /^inside the time-off buffer: approved Vacation time off ended .*, less than 12 hours before the start$/,
    );
    expect(list.members[1].buffer).toBeNull();
  });
});

describe('forced hire and the fatigue rules', () => {
  it("skips a member the fatigue rules keep off, with the rule's words, and forces the next", async () => {
    const org = await suite.server.newOrg({ name: 'Forced Fatigue' });
    const adminId = await org.createUser({ first_name: 'Chief', last_name: 'Tired' });
    const engine = await createAssignment(org, {
      name: 'Engine 3',
      start: '2032-08-01 07:00:00',
      end: '2032-08-02 07:00:00',
    });
    const groupId = (await org.post('/groups', { name: 'Station 3' })).body.id;
    const tired = await member(org, groupId, 'Tia', '1999-01-01');
    const fresh = await member(org, groupId, 'Fay', '2004-01-01');
    // Tia (the most senior, never forced) has worked the three tours before the vacancy
    for (const date of ['2032-08-07', '2032-08-08', '2032-08-09']) {
      const next = Temporal.PlainDate.from(date).add({ days: 1 });
      await createShift(org, engine, tired, `${date} 07:00:00`, `${next} 07:00:00`, {
        work_type_id: await workTypeId(org),
      });
    }
    const saved = await org.put(
      `/groups/${groupId}/forced_list`,
      settings(adminId, [engine], { long_tour_hours: 0, time_off_buffer_hours: 0 }),
    );
    expect(saved.status, saved.text).toBe(200);
    expect((await org.patch('/fatigue_rules', { max_consecutive_hours: 72 })).status).toBe(200);

    const response = await org.post('/forced_hires', {
      assignment_id: engine,
      start: '2032-08-10 07:00:00',
      end: '2032-08-11 07:00:00',
      ordered_by: adminId,
    });
    expect(response.status, response.text).toBe(201);
    expect(response.body).toMatchObject({ status: 'forced', user_id: fresh });
    expect((response.body.order as Explained[]).map((m) => [m.user_id, m.verdict, m.reason])).toEqual([
      [tired, 'skipped', "would work 96 h in a row; the department's limit is 72 h"],
      [fresh, 'forced', 'the first available outside the buffers (never forced)'],
    ]);
  });
});
