import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestOrg, type TestServer } from '../../../test/helpers/server.js';
import { createAssignment } from '../rotations/test-fixtures.js';
import { createCallbackRunner } from '../callbacks/runner/runner.js';

let server: TestServer;
let org: TestOrg;
let adminId: number;
let stationId: number;

beforeAll(async () => {
  server = await startServer();
  org = await server.newOrg({ name: 'Station Board' });
  adminId = await org.createUser({ first_name: 'Dana', last_name: 'Chief', role: 'Admin' });
  stationId = await createAssignment(org, {
    name: 'Engine 3',
    start: '2035-04-01 07:00:00',
    end: '2035-04-02 07:00:00',
  });
});
afterAll(() => server.close());

/** A member's /v1 calls the way the board makes them. */
const sessionOf = (userId: number) => org.signIn(userId);

describe('my offers', () => {
  it("lists a member's own open offers; of two members accepting, one wins and gets the shift", async () => {
    const members = [
      await org.createUser({ first_name: 'Sam', last_name: 'Able', role: 'Firefighter' }),
      await org.createUser({ first_name: 'Lee', last_name: 'Baker', role: 'Firefighter' }),
      await org.createUser({ first_name: 'Kim', last_name: 'Carter', role: 'Firefighter' }),
    ];
    const list = await org.post('/lists', { name: 'Board list', contact_window_minutes: 30, contact_at_once: 2 });
    for (const id of members) {
      expect((await org.put(`/users/${id}/titles`, { ids: [list.body.id] })).status).toBe(200);
    }
    const started = await org.post('/callbacks', {
      list_id: list.body.id,
      initiated_by: adminId,
      assignment_id: stationId,
      start: '2035-04-10 07:00:00',
      end: '2035-04-11 07:00:00',
      positions_to_fill: 2,
      deadline: '2036-01-01T00:00:00+00:00',
      notes: 'Bring your gear',
      ordering: 'seniority',
    });
    expect(started.status, started.text).toBe(201);
    const callbackId = started.body.id;
    const runner = createCallbackRunner(server.app, { baseUrl: server.url });
    expect(await runner.runOnce(new Date().toISOString())).toEqual({ contacted: 2 });
    await runner.stop();
    // the admin records the third member's acceptance by hand: one position is left for the two offered
    const byHand = await org.post(`/callbacks/${callbackId}/users`, { user_id: members[2], status: 'accepted' });
    expect(byHand.status, byHand.text).toBe(200);

    const [sam, lee] = [await sessionOf(members[0]), await sessionOf(members[1])];
    const samOffers = await sam.get(`/v1/users/${members[0]}/callback_offers`);
    expect(samOffers).toAnswer(200, [
      {
        id: expect.any(Number),
        callback_id: callbackId,
        list: { id: list.body.id, name: 'Board list' },
        assignment: { id: stationId, name: 'Engine 3' },
        start: '2035-04-10 07:00:00',
        end: '2035-04-11 07:00:00',
        notes: 'Bring your gear',
        expires_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
      },
    ]);
    const leeOffers = await lee.get(`/v1/users/${members[1]}/callback_offers`);
    expect(leeOffers.body).toHaveLength(1);
    const [samOffer, leeOffer] = [samOffers.body[0].id, leeOffers.body[0].id];

    // members see and answer only their own
    expect((await sam.get(`/v1/users/${members[1]}/callback_offers`)).status).toBe(403);
    expect((await sam.post(`/v1/users/${members[1]}/callback_offers/${leeOffer}`, { answer: 'accept' })).status).toBe(
      403,
    );
    const notTheirs = await sam.post(`/v1/users/${members[0]}/callback_offers/${leeOffer}`, { answer: 'accept' });
    expect(notTheirs.status).toBe(404);

    const answers = await Promise.all([
      sam.post(`/v1/users/${members[0]}/callback_offers/${samOffer}`, { answer: 'accept' }),
      lee.post(`/v1/users/${members[1]}/callback_offers/${leeOffer}`, { answer: 'accept' }),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 422]);
    const winner = answers[0].status === 200 ? members[0] : members[1];
    expect(answers.find((a) => a.status === 200)!.body).toMatchObject({ message: 'You accepted the callback.' });
    expect(answers.find((a) => a.status === 422)!).toBeInvalid(
      expect.arrayContaining([`Callback #${callbackId} is filled.`]),
    );

    expect((await org.get(`/callbacks/${callbackId}`)).body.status).toBe('filled');
    const callbackUsers = (await org.get(`/callbacks/${callbackId}/users`)).body as Array<Record<string, string>>;
    expect(
      callbackUsers
        .filter((u) => u.status === 'accepted')
        .map((u) => u.id)
        .sort(),
    ).toEqual([String(winner), String(members[2])].sort());
    const schedule = await org.get('/schedule', {
      query: { start: '2035-04-10 00:00:00', end: '2035-04-10 23:59:59' },
    });
    const day = schedule.body.days.find((d: { date: string }) => d.date === '2035-04-10');
    const onDuty = day.assignments.flatMap((a: { shifts: Array<{ user: { id: number } }> }) =>
      a.shifts.map((s) => s.user.id),
    );
    expect(onDuty).toContain(winner);

    // the winner's offer is used: gone from the list, and a second answer is refused
    const winnerSession = winner === members[0] ? sam : lee;
    const winnerOffer = winner === members[0] ? samOffer : leeOffer;
    expect((await winnerSession.get(`/v1/users/${winner}/callback_offers`)).body).toEqual([]);
    const again = await winnerSession.post(`/v1/users/${winner}/callback_offers/${winnerOffer}`, { answer: 'decline' });
    expect(again.status).toBe(409);
    expect(again.body.error_message).toContain('already been used');
  });
});
