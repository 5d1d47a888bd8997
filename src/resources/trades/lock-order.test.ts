import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type ApiResponse, type TestOrg, type TestServer } from '../../../test/helpers/server.js';
import { createAssignment, workTypeId } from '../rotations/test-fixtures.js';
import { createShift } from '../shifts/test-fixtures.js';

/**
 * One lock order for writes to schedules (lockRowsThenUsers, src/core/db/locks.ts): a trade's
 * approval (it moves the shift) and edits and deletes of that same shift, 50 at once, never wait
 * for each other in a circle. On PostgreSQL a circle is a deadlock, answered 409 "try again"; here
 * every request is answered for what it is, and the schedule ends consistent. Dates far from today.
 */
let server: TestServer;
let org: TestOrg;
let adminId: number;
let assignmentId: number;
let regular: number;

const TRY_AGAIN = /try again/i;

async function people(count: number, tag: string): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < count; i += 1) ids.push(await org.createUser({ first_name: `${tag}${i}`, last_name: 'Crew' }));
  return ids;
}

/** A trade of the requester's span accepted by the taker, waiting for the admin's approval. */
async function acceptedTrade(requester: number, taker: number, start: string, end: string): Promise<number> {
  const response = await org.post('/trades', {
    requesting_user: requester,
    accepting_user_id: taker,
    approving_user_id: adminId,
    start,
    end,
  });
  expect(response.status, response.text).toBe(201);
  expect(response.body.trade_status).toBe('accepted');
  return Number(response.body.id);
}

async function shiftsOf(users: number[], start: string, end: string) {
  const all: Array<{ id: number; user: { id: number }; traded_with: number | null }> = [];
  for (const user of users) all.push(...(await org.get('/shifts', { query: { user_id: user, start, end } })).body);
  return all;
}

function expectNoFailure(answers: ApiResponse[]) {
  for (const answer of answers) {
    expect(answer.status, answer.text).toBeLessThan(500);
    if (answer.status === 409) expect(answer.text).not.toMatch(TRY_AGAIN);
    expect([200, 404, 422], answer.text).toContain(answer.status);
  }
}

/** The requester's shift, a trade of it to each taker, and 50 requests at once: approvals, edits and deletes. */
async function race(day: string, counts: { approvals: number; edits: number; deletes: number }) {
  const start = `${day} 07:00:00`;
  const next = new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  const end = `${next} 07:00:00`;
  const [requester] = await people(1, `Giver${day}`);
  const takers = await people(counts.approvals, `Taker${day}`);
  const shiftId = (await createShift(org, assignmentId, requester!, start, end, { work_type_id: regular })).body
    .id as number;
  const trades: number[] = [];
  for (const taker of takers) trades.push(await acceptedTrade(requester!, taker, start, end));
  const edit = (i: number) => org.patch(`/shifts/${shiftId}`, { date: day, start, end, notes: `edit ${i}` });
  const requests = [
    ...trades.map((id) => () => org.patch(`/trades/${id}`, { action: 'approve', admin_id: adminId })),
    ...Array.from({ length: counts.edits }, (_, i) => () => edit(i)),
    ...Array.from({ length: counts.deletes }, () => () => org.del(`/shifts/${shiftId}`)),
  ];
  // interleaved, so that approvals, edits and deletes arrive together
  const order = requests.map((_, i) => i).sort((a, b) => ((a * 7919) % 53) - ((b * 7919) % 53));
  const answers = await Promise.all(order.map((i) => requests[i]!()));
  expectNoFailure(answers);
  const byKind = (from: number, to: number) => order.flatMap((i, at) => (i >= from && i < to ? [answers[at]!] : []));
  return {
    requester: requester!,
    takers,
    trades,
    shiftId,
    start,
    end,
    approvals: byKind(0, trades.length),
    edits: byKind(trades.length, trades.length + counts.edits),
    deletes: byKind(trades.length + counts.edits, requests.length),
  };
}

beforeAll(async () => {
  server = await startServer();
  org = await server.newOrg();
  adminId = await org.createUser({ first_name: 'Dana', last_name: 'Chief', role: 'Admin' });
  assignmentId = await createAssignment(org, { start: '2090-01-01 07:00:00', end: '2090-01-02 07:00:00' });
  regular = await workTypeId(org);
});
afterAll(() => server.close());

describe('trade approvals racing edits and deletes of the same shift (one lock order)', () => {
  it('25 approvals and 25 edits at once: all answered, the shift moved once and kept whole', async () => {
    const run = await race('2090-03-10', { approvals: 25, edits: 25, deletes: 0 });
    expect(run.approvals.map((a) => a.status)).toEqual(run.approvals.map(() => 200));
    expect(run.edits.map((a) => a.status)).toEqual(run.edits.map(() => 200));
    // the first approval moved the shift; the others found no work of the requester left to move
    const shifts = await shiftsOf([run.requester, ...run.takers], run.start, run.end);
    expect(shifts).toHaveLength(1);
    expect(shifts[0]!.id).toBe(run.shiftId);
    expect(run.takers).toContain(shifts[0]!.user.id);
    expect(shifts[0]!.traded_with).toBe(run.requester);
    const shift = await org.get(`/shifts/${run.shiftId}`);
    expect(shift.body.notes).toMatch(/^edit \d+$/);
    for (const id of run.trades) expect((await org.get(`/trades/${id}`)).body.status).toBe('filled');
  });

  it('20 approvals, 25 edits and 5 deletes at once: one delete wins, nothing is left behind', async () => {
    const run = await race('2090-04-10', { approvals: 20, edits: 25, deletes: 5 });
    expect(run.deletes.map((a) => a.status).sort()).toEqual([200, 404, 404, 404, 404]);
    for (const edit of run.edits) expect([200, 404]).toContain(edit.status);
    for (const approval of run.approvals) expect(approval.status, approval.text).toBe(200);
    expect((await org.get(`/shifts/${run.shiftId}`)).status).toBe(404);
    expect(await shiftsOf([run.requester, ...run.takers], run.start, run.end)).toEqual([]);
  });
});
