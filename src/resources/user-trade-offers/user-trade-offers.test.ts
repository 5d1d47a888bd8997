import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestOrg, type TestServer } from '../../../test/helpers/server.js';
import { createAssignment, workTypeId } from '../rotations/test-fixtures.js';

let server: TestServer;
let org: TestOrg;
let adminId: number;
let assignmentId: number;
let regular: number;
const people: Record<'owner' | 'bea' | 'cal' | 'dee', number> = { owner: 0, bea: 0, cal: 0, dee: 0 };

beforeAll(async () => {
  server = await startServer();
  org = await server.newOrg({ name: 'Trade Offers' });
  adminId = await org.createUser({ first_name: 'Dana', last_name: 'Chief', role: 'Admin' });
  people.owner = await org.createUser({ first_name: 'Olga', last_name: 'Owner', role: 'Firefighter' });
  people.bea = await org.createUser({ first_name: 'Bea', last_name: 'Baker', role: 'Firefighter' });
  people.cal = await org.createUser({ first_name: 'Cal', last_name: 'Cole', role: 'Firefighter' });
  people.dee = await org.createUser({ first_name: 'Dee', last_name: 'Dunn', role: 'Firefighter' });
  assignmentId = await createAssignment(org, {
    name: 'Engine 4',
    start: '2035-05-01 07:00:00',
    end: '2035-05-02 07:00:00',
  });
  regular = await workTypeId(org);
});
afterAll(() => server.close());

/** A member's /v1 calls the way the board makes them. */
const sessionOf = (userId: number) => org.signIn(userId);

/** The owner's 24 h shift on `day`, and the owner's own trade request of it offered to `offered`. */
async function offeredTrade(day: string, next: string, offered: number[]): Promise<number> {
  const start = `${day} 07:00:00`;
  const end = `${next} 07:00:00`;
  const shift = await org.post('/shifts', {
    assignment_id: assignmentId,
    user_id: people.owner,
    date: day,
    start,
    end,
    work_type_id: regular,
  });
  expect(shift.status, shift.text).toBe(201);
  const owner = await sessionOf(people.owner);
  const trade = await owner.post('/v1/trades', {
    requesting_user: people.owner,
    start,
    end,
    offered_user_ids: offered,
    approving_user_id: adminId,
  });
  expect(trade.status, trade.text).toBe(201);
  return trade.body.id as number;
}

describe('trades offered to me', () => {
  it('lists a trade to the members it was offered to; only they may answer; of two accepting, one wins', async () => {
    const id = await offeredTrade('2035-05-10', '2035-05-11', [people.bea, people.cal]);
    const [bea, cal, dee] = await Promise.all([sessionOf(people.bea), sessionOf(people.cal), sessionOf(people.dee)]);
    const listed = await bea.get(`/v1/users/${people.bea}/trade_offers`);
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body).toEqual([
      {
        id,
        requesting_user: { id: people.owner, name: 'Olga Owner' },
        start: '2035-05-10 07:00:00',
        end: '2035-05-11 07:00:00',
        swap_start: null,
        swap_end: null,
        status: 'pending',
        notes: null,
        answer: 'offered',
      },
    ]);
    expect((await dee.get(`/v1/users/${people.dee}/trade_offers`)).body).toEqual([]);
    // someone else's offers, and a trade not offered to the member, are refused and change nothing
    expect((await dee.get(`/v1/users/${people.bea}/trade_offers`)).status).toBe(403);
    expect((await dee.post(`/v1/users/${people.bea}/trade_offers/${id}`, { answer: 'accept' })).status).toBe(403);
    const notOffered = await dee.post(`/v1/users/${people.dee}/trade_offers/${id}`, { answer: 'accept' });
    expect(notOffered.status, notOffered.text).toBe(404);
    expect((await org.get(`/trades/${id}`)).body.status).toBe('pending');

    const answers = await Promise.all([
      bea.post(`/v1/users/${people.bea}/trade_offers/${id}`, { answer: 'accept' }),
      cal.post(`/v1/users/${people.cal}/trade_offers/${id}`, { answer: 'accept' }),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 422]);
    const winner = answers[0]!.status === 200 ? people.bea : people.cal;
    const loser = winner === people.bea ? cal : bea;
    const loserId = winner === people.bea ? people.cal : people.bea;
    const won = answers.find((a) => a.status === 200)!;
    expect(won.body.message).toBe(`You accepted trade #${id}; an admin approves it.`);
    expect(String(answers.find((a) => a.status === 422)!.body.error_message)).toContain('already been accepted');
    const trade = await org.get(`/trades/${id}`);
    expect(trade.body.status).toBe('accepted');
    expect(trade.body.accepting_user.id).toBe(String(winner));
    const mine = await (winner === people.bea ? bea : cal).get(`/v1/users/${winner}/trade_offers`);
    expect(mine.body.map((o: { id: number; answer: string }) => [o.id, o.answer])).toEqual([[id, 'accepted']]);
    expect((await loser.get(`/v1/users/${loserId}/trade_offers`)).body).toEqual([]);
  });

  it('a declined offer leaves the list; a pre-approved trade fills on acceptance', async () => {
    const declined = await offeredTrade('2035-05-14', '2035-05-15', [people.bea]);
    const bea = await sessionOf(people.bea);
    const no = await bea.post(`/v1/users/${people.bea}/trade_offers/${declined}`, { answer: 'decline' });
    expect(no.status, no.text).toBe(200);
    expect(no.body.message).toBe(`You declined trade #${declined}.`);
    const after = (await bea.get(`/v1/users/${people.bea}/trade_offers`)).body as Array<{ id: number }>;
    expect(after.map((o) => o.id)).not.toContain(declined);

    const approved = await offeredTrade('2035-05-18', '2035-05-19', [people.dee]);
    const approve = await org.patch(`/trades/${approved}`, { action: 'approve', admin_id: adminId });
    expect(approve.status, approve.text).toBe(200);
    const dee = await sessionOf(people.dee);
    const yes = await dee.post(`/v1/users/${people.dee}/trade_offers/${approved}`, { answer: 'accept' });
    expect(yes.status, yes.text).toBe(200);
    expect(yes.body.message).toBe(`You accepted trade #${approved}: it is filled, the shift is yours.`);
    expect((await org.get(`/trades/${approved}`)).body.status).toBe('filled');
    expect((await dee.get(`/v1/users/${people.dee}/trade_offers`)).body).toEqual([]);
  });
});
