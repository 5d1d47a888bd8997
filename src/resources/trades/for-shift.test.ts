import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestOrg, type TestServer } from '../../../test/helpers/server.js';
import { createAssignment, workTypeId } from '../rotations/test-fixtures.js';

/**
 * POST /trades `for_shift` (extension): the board's "Move or swap" names the shift it read; once that
 * shift has moved to someone else (another admin's move), the same move from a stale panel is
 * refused with 409 and nothing is written (without it, a trade of hours the person no longer works
 * was filled, moving nothing). Without the field the request behaves as before. Dates far from today.
 */
let server: TestServer;
let org: TestOrg;
let adminId: number;
let people: Record<'ann' | 'ben' | 'cal', number>;
let shiftId: number;
const START = '2090-05-10 07:00:00';
const END = '2090-05-11 07:00:00';

beforeAll(async () => {
  server = await startServer();
  org = await server.newOrg();
  adminId = await org.createUser({ first_name: 'Dana', last_name: 'Chief', role: 'Admin' });
  people = {
    ann: await org.createUser({ first_name: 'Ann', last_name: 'Able' }),
    ben: await org.createUser({ first_name: 'Ben', last_name: 'Baker' }),
    cal: await org.createUser({ first_name: 'Cal', last_name: 'Cook' }),
  };
  const assignmentId = await createAssignment(org, { start: '2090-01-01 07:00:00', end: '2090-01-02 07:00:00' });
  const shift = await org.post('/shifts', {
    assignment_id: assignmentId,
    user_id: people.ann,
    date: '2090-05-10',
    start: START,
    end: END,
    work_type_id: await workTypeId(org),
  });
  expect(shift.status, shift.text).toBe(201);
  shiftId = shift.body.id;
});
afterAll(() => server.close());

const move = (taker: number, forShift?: unknown) =>
  org.post('/trades', {
    requesting_user: people.ann,
    start: START,
    end: END,
    approving_user_id: adminId,
    accepting_user_id: taker,
    approve: true,
    ...(forShift ? { for_shift: forShift } : {}),
  });

const trades = async () => ((await org.get('/trades')).body as unknown[]).length;

describe('POST /trades with for_shift (extension)', () => {
  const read = () => ({ id: shiftId, recurring: false, start: START, end: END });

  it('moves the shift when it is as the board read it', async () => {
    const moved = await move(people.ben, read());
    expect(moved.status, moved.text).toBe(201);
    expect(moved.body.trade_status).toBe('filled');
  });

  it('refuses the same move from a stale panel with 409, writing nothing', async () => {
    const before = await trades();
    const stale = await move(people.cal, read());
    expect(stale.status, stale.text).toBe(409);
    expect(stale.body.error_message).toMatch(/has moved or is no longer this person's to work; nothing was recorded/);
    expect(await trades()).toBe(before);
    const day = (await org.get('/schedule', { query: { start: '2090-05-10 00:00:00', end: '2090-05-10 23:59:59' } }))
      .body.days[0];
    const workers = day.assignments.flatMap((a: { shifts: Array<{ user: { id: number } }> }) =>
      a.shifts.map((s) => Number(s.user.id)),
    );
    expect(workers).toEqual([people.ben]);
  });

  it('names a bad for_shift field', async () => {
    const response = await move(people.cal, { id: 'x', recurring: 'no', start: START });
    expect(response.status).toBe(422);
    expect(response.text).toMatch(/for_shift|for shift/i);
  });
});
