import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestOrg, type TestServer } from '../helpers/server.js';

/**
 * Spans the platform expands day by day (time off split along the rotation, a trade's or a shift's
 * clash check against the user's work) are bounded: a record from year 1 to year 9999 once took
 * the server's memory and killed it (POST /trades), and a stored one killed every later read of
 * GET /time_offs. Writes refuse a span over 366 days with 422; reads of any period answer.
 */
let server: TestServer;
let org: TestOrg;
let userId: number;
let adminId: number;
let assignmentId: number;
let workTypeId: number;
let timeOffTypeId: number;

const FOREVER = { start: '0001-01-01 00:00:00', end: '9999-12-31 00:00:00' };
const refused = (what: string) => ({
  status: 422,
  error: 'invalid_params',
  error_message: [`The ${what} may not be longer than 366 days.`],
});

beforeAll(async () => {
  server = await startServer();
  org = await server.newOrg();
  userId = await org.createUser();
  adminId = await org.createUser({ role: 'Admin' });
  const assignment = await org.post('/assignments', {
    name: 'Engine 1',
    start: '2026-03-02 07:00:00',
    end: '2026-03-03 07:00:00',
    positions_to_fill: 1,
  });
  assignmentId = assignment.body.id;
  workTypeId = (await org.get('/work_types')).body[0].id;
  timeOffTypeId = Number((await org.post('/time_off_types', { label: 'Vacation' })).body.id);
});
afterAll(() => server.close());

describe('a write whose span is longer than 366 days', () => {
  it('is refused with 422 and writes nothing: time off, by an admin and by the user', async () => {
    const body = {
      user_id: userId,
      admin_ids: [adminId],
      start_date: FOREVER.start,
      end_date: FOREVER.end,
      time_off_type_id: timeOffTypeId,
    };
    expect((await org.post('/time_offs', { ...body, status: 1 })).body).toEqual(refused('time off'));
    expect((await org.post('/time_offs', body)).body).toEqual(refused('time off'));
    const byUser = await org.post(`/users/${userId}/time_offs`, {
      start_date: FOREVER.start,
      end_date: FOREVER.end,
      time_off_type_id: timeOffTypeId,
    });
    expect(byUser.body).toEqual(refused('time off'));
    const listed = await org.get('/time_offs', { query: { start: '2026-01-01', end: '2026-02-01' } });
    expect(listed.status).toBe(200);
    expect(listed.body.items).toEqual([]);
  });

  it('is refused with 422: trades, shifts, sign-up events, availability, callbacks', async () => {
    const trade = await org.post('/trades', {
      requesting_user: userId,
      start: FOREVER.start,
      end: FOREVER.end,
      approving_user_id: adminId,
    });
    expect(trade.body).toEqual(refused('period'));
    const shift = await org.post('/shifts', {
      assignment_id: assignmentId,
      user_id: userId,
      date: '2026-03-02',
      ...FOREVER,
      work_type_id: workTypeId,
    });
    expect(shift.body).toEqual(refused('shift'));
    const event = await org.post('/signup_events', {
      admin_id: adminId,
      title: 'Forever',
      ...FOREVER,
      employees_needed: 1,
      work_type_id: workTypeId,
    });
    expect(event.body).toEqual(refused('event'));
    expect((await org.post('/availability_periods', { user_id: userId, ...FOREVER })).body).toEqual(refused('period'));
  });

  it('is taken for a one-off assignment (it is shown on its start date, never listed day by day), and the schedule and shifts around it still answer', async () => {
    const forever = await org.post('/assignments', { name: 'Forever', ...FOREVER, positions_to_fill: 1, rrule: null });
    expect(forever.status).toBe(201);
    const shift = await org.post('/shifts', {
      assignment_id: forever.body.id,
      user_id: userId,
      date: '2026-05-04',
      start: '2026-05-04 07:00:00',
      end: '2026-05-04 19:00:00',
      work_type_id: workTypeId,
    });
    expect(shift.status).toBe(201);
    const week = await org.get('/schedule', { query: { start: '2026-05-01', end: '2026-05-08' } });
    expect(week.status).toBe(200);
  });

  it('is taken up to 366 days', async () => {
    const body = {
      user_id: userId,
      admin_ids: [adminId],
      start_date: '2027-01-01 00:00:00',
      end_date: '2028-01-02 00:00:00',
      time_off_type_id: timeOffTypeId,
      status: 1,
    };
    const created = await org.post('/time_offs', body);
    expect(created.status).toBe(201);
    const page = await org.get('/time_offs', { query: { start: '2027-06-01', end: '2027-06-03' } });
    expect(page.status).toBe(200);
    expect(page.body.items.length).toBeGreaterThan(0);
  });
});

describe('a read of a period from year 1 to year 9999', () => {
  it.each([
    ['/time_offs', { start: FOREVER.start, end: FOREVER.end }],
    ['/users/{user}/time_offs', { start: FOREVER.start, end: FOREVER.end }],
    ['/availability_periods', { start: FOREVER.start, end: FOREVER.end }],
    ['/callbacks', { start: FOREVER.start, end: FOREVER.end }],
    ['/shifts', { user_id: '{user}', start: FOREVER.start, end: FOREVER.end }],
    ['/signup_events', { start: FOREVER.start }],
    ['/visual_cycles', { start: '0001-01-01', end: '9999-12-31' }],
    ['/schedule', { start: FOREVER.start, end: FOREVER.end }],
    ['/payroll', { start: FOREVER.start, end: FOREVER.end }],
    ['/day_labels', { start: '0001-01-01', end: '9999-12-31' }],
    ['/logs', { after: '0001-01-01' }],
  ])('GET %s answers 200 or 422, in the error format when refused', async (path, query) => {
    const fill = (text: string) => text.replace('{user}', String(userId));
    const response = await org.get(fill(path), {
      query: Object.fromEntries(Object.entries(query).map(([k, v]) => [k, fill(v)])),
    });
    expect([200, 422]).toContain(response.status);
    if (response.status === 422) expect(response.body).toMatchObject({ status: 422, error: 'invalid_params' });
  });
});
