import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWithOrgs, testDatabaseUrl, type TestOrg, type TestServer } from '../../../test/helpers/server.js';
import { createAssignment, workTypeId as firstWorkTypeId } from '../rotations/test-fixtures.js';

/**
 * POST /trades with `approve: true` (extension): the trade is requested and approved in one
 * transaction, so the work moves and the trade is filled, or nothing at all is written.
 */
let server: TestServer;
let org: TestOrg;
let adminId: number;
let workTypeId: number;
let assignmentId: number;

let dayCounter = 0;
/** A fresh 24-hour span in the future for each test. */
function nextSpan() {
  dayCounter += 2;
  const day = new Date(Date.UTC(2032, 2, 1 + dayCounter)).toISOString().slice(0, 10);
  const next = new Date(Date.UTC(2032, 2, 2 + dayCounter)).toISOString().slice(0, 10);
  return { start: `${day} 07:00:00`, end: `${next} 07:00:00` };
}

async function giveShift(userId: number, span: { start: string; end: string }, as = org, assignment = assignmentId) {
  const types = as === org ? workTypeId : ((await as.get('/work_types')).body as Array<{ id: number }>)[0]!.id;
  const response = await as.post('/shifts', {
    assignment_id: assignment,
    user_id: userId,
    date: span.start.slice(0, 10),
    ...span,
    work_type_id: types,
  });
  if (response.status !== 201) throw new Error(`shift creation failed: ${response.text}`);
  return response.body.id as number;
}

/** POST /trades approved in the same request (`approve: true` unless `fields` say otherwise) by `admin`. */
const requestApproved = (
  requester: number,
  span: { start: string; end: string },
  fields: Record<string, unknown> = {},
  as = org,
  admin = adminId,
) => as.post('/trades', { requesting_user: requester, ...span, approving_user_id: admin, approve: true, ...fields });
const ownerOf = async (shiftId: number, as = org) => (await as.get(`/shifts/${shiftId}`)).body.user.id as number;
const latestLogId = async (as = org) => (await as.get('/logs')).body.data[0]?.id as string | undefined;
const tradesOf = async (userId: number, as = org) =>
  ((await as.get('/trades', { query: { user_id: userId } })).body as unknown[]).length;

beforeAll(async () => {
  ({ server, org } = await startWithOrgs());
  adminId = await org.createUser({ first_name: 'Steve', last_name: 'Boss' });
  workTypeId = await firstWorkTypeId(org);
  assignmentId = await createAssignment(org, {
    name: 'Station 4',
    start: '2020-01-01 07:00:00',
    end: '2020-01-02 07:00:00',
  });
});
afterAll(() => server.close());

describe('POST /trades with approve (extension)', () => {
  it('requests and approves in one request: filled, the shift moved, both log rows written', async () => {
    const requester = await org.createUser({ first_name: 'Vincent', last_name: 'Ownbey' });
    const taker = await org.createUser({ first_name: 'Jack', last_name: 'Smith' });
    const span = nextSpan();
    const shiftId = await giveShift(requester, span);
    const response = await requestApproved(requester, span, { accepting_user_id: taker });
    expect(response).toSucceed(201, `Trade #${response.body.id} is filled`, {
      id: expect.any(Number),
      trade_status: 'filled',
    });
    const id = response.body.id as number;
    expect(await ownerOf(shiftId)).toBe(taker);
    expect((await org.get(`/trades/${id}`)).body).toMatchObject({
      status: 'filled',
      approved_by: { id: `${adminId}` },
    });
    const logs = (await org.get('/logs')).body.data
      .slice(0, 2)
      .map((e: { event_description: string }) => e.event_description);
    expect(logs).toEqual([
      `Steve Boss approved trade #${id} of Vincent Ownbey (${span.start} to ${span.end}); the trade is filled.`,
      `Vincent Ownbey requested a trade of ${span.start} to ${span.end} with Jack Smith.`,
    ]);
  });

  it('without a taker, the trade is requested pre-approved (the first acceptance fills it)', async () => {
    const requester = await org.createUser();
    const span = nextSpan();
    await giveShift(requester, span);
    const response = await requestApproved(requester, span);
    expect(response.status, response.text).toBe(201);
    expect(response.body.trade_status).toBe('approved');
  });

  it('writes nothing when approving is refused: no trade row, no moved shift, no log row', async () => {
    const bare = await server.newOrg();
    const admin = await bare.createUser();
    const requester = await bare.createUser();
    const taker = await bare.createUser();
    const station = await createAssignment(bare, {
      name: 'Station 1',
      start: '2020-01-01 07:00:00',
      end: '2020-01-02 07:00:00',
    });
    const span = nextSpan();
    const shiftId = await giveShift(requester, span, bare, station);
    // a shift placed by a trade needs a work type: with none, approving is refused in words
    for (const type of (await bare.get('/work_types')).body as Array<{ id: number }>)
      expect((await bare.del(`/work_types/${type.id}`)).status).toBe(200);
    const logBefore = await latestLogId(bare);
    const response = await requestApproved(requester, span, { accepting_user_id: taker }, bare, admin);
    expect(response).toBeInvalid(['The organization has no work types: add one first (POST /work_types).']);
    expect(await tradesOf(requester, bare)).toBe(0);
    expect(await ownerOf(shiftId, bare)).toBe(requester);
    expect(await latestLogId(bare)).toBe(logBefore);
  });

  it('writes nothing when the second shift of a swap cannot be placed: the first stays too', async () => {
    const requester = await org.createUser();
    const taker = await org.createUser();
    const [span, swap] = [nextSpan(), nextSpan()];
    const mine = await giveShift(requester, span);
    const theirs = await giveShift(taker, swap);
    const shiftsOf = async () =>
      Promise.all([requester, taker].map(async (user_id) => (await org.get('/shifts', { query: { user_id } })).body));
    const shiftsBefore = await shiftsOf();
    const logBefore = await latestLogId();
    const request = {
      requesting_user: requester,
      ...span,
      approving_user_id: adminId,
      accepting_user_id: taker,
      swap_start: swap.start,
      swap_end: swap.end,
      approve: true,
    };
    // the database refuses the second placement (the taker's shift going to the requester), after the first
    await poison(theirs);
    try {
      const response = await org.post('/trades', request);
      expect(response.status).toBe(500);
      expect(response.body).toMatchObject({ status: 500 });
    } finally {
      await unpoison();
    }
    expect(await tradesOf(requester)).toBe(0);
    expect(await tradesOf(taker)).toBe(0);
    expect([await ownerOf(mine), await ownerOf(theirs)]).toEqual([requester, taker]);
    expect(await shiftsOf()).toEqual(shiftsBefore);
    expect(await latestLogId()).toBe(logBefore);

    // the same request, once the database takes it, swaps both shifts
    const retried = await org.post('/trades', request);
    expect(retried.body.trade_status, retried.text).toBe('filled');
    expect([await ownerOf(mine), await ownerOf(theirs)]).toEqual([taker, requester]);
  });

  it('refuses to approve a trade whose start has passed, writing nothing', async () => {
    const requester = await org.createUser();
    const taker = await org.createUser();
    const span = { start: '2020-03-02 07:00:00', end: '2020-03-03 07:00:00' };
    const response = await requestApproved(requester, span, { accepting_user_id: taker });
    expect(response).toBeInvalid(['A trade whose start has passed cannot be approved: it starts 2020-03-02 07:00:00.']);
    expect(await tradesOf(requester)).toBe(0);
  });

  it('refuses a non-boolean approve in words', async () => {
    const requester = await org.createUser();
    const span = nextSpan();
    const response = await requestApproved(requester, span, { approve: 'soon' });
    expect(response.status).toBe(422);
    expect(JSON.stringify(response.body.error_message)).toMatch(/approve/);
    expect(await tradesOf(requester)).toBe(0);
  });
});

/** A trigger that makes the database refuse any change of one shift row (the failure in the middle). */
async function poison(shiftId: number) {
  const db = server.app.db;
  if (testDatabaseUrl) {
    await sql`create or replace function poison_shift() returns trigger language plpgsql as
      $$ begin raise exception 'poisoned'; end $$`.execute(db);
    await sql`create trigger poison before update on shift for each row
      when (old.id = ${sql.lit(shiftId)}) execute function poison_shift()`.execute(db);
  } else {
    await sql`create temp trigger poison before update on shift when old.id = ${sql.lit(shiftId)}
      begin select raise(abort, 'poisoned'); end`.execute(db);
  }
}

async function unpoison() {
  const db = server.app.db;
  if (testDatabaseUrl) await sql`drop trigger poison on shift`.execute(db);
  else await sql`drop trigger poison`.execute(db);
}
