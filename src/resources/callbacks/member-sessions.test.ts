import { createECDH, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestOrg, type TestServer } from '../../../test/helpers/server.js';
import { createAssignment } from '../rotations/test-fixtures.js';
import { createCallbackRunner } from './runner/runner.js';

/**
 * The callback routes a web app user calls for themselves (src/webapp/access.ts): push
 * subscriptions, auto-accept and my offers. A member manages only their own (403 for another
 * user's path, 404 for another user's row under their own path); an admin of the web app acts
 * for anyone, as docs/workflows.md says.
 */
let server: TestServer;
let org: TestOrg;
let adminId: number;
let memberId: number;
let colleagueId: number;
let member: Session;
let admin: Session;

type Session = Awaited<ReturnType<typeof sessionOf>>;

const sessionOf = (userId: number) => org.signIn(userId);

/** A device's subscription as a browser's `PushSubscription.toJSON()` gives it (never sent to). */
function device(name: string) {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return {
    endpoint: `https://127.0.0.1:9/push/${name}-${randomBytes(4).toString('hex')}`,
    expirationTime: null,
    keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') },
  };
}

beforeAll(async () => {
  server = await startServer({
    push: { subject: 'mailto:dispatch@crewplan.test', publicKey: undefined, privateKey: undefined },
    webhookAllowPrivate: true,
  });
  org = await server.newOrg({ name: 'Station Sessions' });
  adminId = await org.createUser({ first_name: 'Dana', last_name: 'Chief', role: 'Admin' });
  memberId = await org.createUser({ first_name: 'Sam', last_name: 'Able', role: 'Firefighter' });
  colleagueId = await org.createUser({ first_name: 'Lee', last_name: 'Baker', role: 'Firefighter' });
  [member, admin] = [await sessionOf(memberId), await sessionOf(adminId)];
});
afterAll(() => server.close());

describe('push subscriptions from a web app session', () => {
  it('a member subscribes, lists and removes their own devices, and no one else’s', async () => {
    expect((await member.get('/push/key')).body).toEqual({ enabled: true, public_key: expect.any(String) });
    expect((await member.get(`/users/${memberId}/push_subscriptions`)).body).toEqual([]);
    const mine = device('sam');
    const created = await member.post(`/users/${memberId}/push_subscriptions`, mine);
    expect(created.status, created.text).toBe(201);
    expect((await member.get(`/users/${memberId}/push_subscriptions`)).body).toEqual([
      { id: created.body.id, endpoint: mine.endpoint, created_at: expect.any(String) },
    ]);

    // the admin subscribes a device for the colleague (docs: members for themselves only)
    const theirs = await admin.post(`/users/${colleagueId}/push_subscriptions`, device('lee'));
    expect(theirs.status, theirs.text).toBe(201);
    expect((await admin.get(`/users/${colleagueId}/push_subscriptions`)).body).toHaveLength(1);

    expect((await member.get(`/users/${colleagueId}/push_subscriptions`)).status).toBe(403);
    expect((await member.post(`/users/${colleagueId}/push_subscriptions`, device('x'))).status).toBe(403);
    expect((await member.del(`/users/${colleagueId}/push_subscriptions/${theirs.body.id}`)).status).toBe(403);
    // the colleague's subscription under the member's own path: not theirs, so not found
    const underOwnPath = await member.del(`/users/${memberId}/push_subscriptions/${theirs.body.id}`);
    expect(underOwnPath.status, underOwnPath.text).toBe(404);
    expect((await org.get(`/users/${colleagueId}/push_subscriptions`)).body.map((s: { id: number }) => s.id)).toEqual([
      theirs.body.id,
    ]);

    expect((await member.del(`/users/${memberId}/push_subscriptions/${created.body.id}`)).status).toBe(200);
    expect((await member.get(`/users/${memberId}/push_subscriptions`)).body).toEqual([]);
    expect((await admin.del(`/users/${colleagueId}/push_subscriptions/${theirs.body.id}`)).status).toBe(200);
    expect((await org.get(`/users/${colleagueId}/push_subscriptions`)).body).toEqual([]);
  });
});

describe('auto-accept from a web app session', () => {
  it('a member reads and sets their own; another user’s is 403 and unchanged; an admin sets anyone’s', async () => {
    const setting = { enabled: true, max_hours: 24, period: 'week', assignment_ids: null, weekdays: [6, 7] };
    const own = await member.put(`/users/${memberId}/callback_auto_accept`, setting);
    expect(own.status, own.text).toBe(200);
    expect((await member.get(`/users/${memberId}/callback_auto_accept`)).body).toEqual({
      user_id: memberId,
      ...setting,
    });

    expect((await member.get(`/users/${colleagueId}/callback_auto_accept`)).status).toBe(403);
    expect((await member.put(`/users/${colleagueId}/callback_auto_accept`, setting)).status).toBe(403);
    expect((await org.get(`/users/${colleagueId}/callback_auto_accept`)).body.enabled).toBe(false);

    const forColleague = await admin.put(`/users/${colleagueId}/callback_auto_accept`, {
      enabled: true,
      max_hours: 12,
      period: 'month',
    });
    expect(forColleague.status, forColleague.text).toBe(200);
    expect((await admin.get(`/users/${colleagueId}/callback_auto_accept`)).body).toMatchObject({
      enabled: true,
      max_hours: 12,
      period: 'month',
    });
    // the admin turns the member's off again: an admin acts on the whole organization
    const off = await admin.put(`/users/${memberId}/callback_auto_accept`, { ...setting, enabled: false });
    expect(off.status, off.text).toBe(200);
    expect((await member.get(`/users/${memberId}/callback_auto_accept`)).body.enabled).toBe(false);
  });
});

describe('my offers from a web app session', () => {
  it('a member sees only their own; an admin lists and answers a member’s offer for them', async () => {
    // the colleague's auto-accept (set above) is turned off so the runner offers rather than accepts
    expect(
      (await org.put(`/users/${colleagueId}/callback_auto_accept`, { enabled: false, max_hours: 1, period: 'week' }))
        .status,
    ).toBe(200);
    const stationId = await createAssignment(org, {
      name: 'Engine 8',
      start: '2035-06-01 07:00:00',
      end: '2035-06-02 07:00:00',
    });
    const list = await org.post('/lists', { name: 'Session list', contact_window_minutes: 30, contact_at_once: 2 });
    for (const id of [memberId, colleagueId])
      expect((await org.put(`/users/${id}/titles`, { ids: [list.body.id] })).status).toBe(200);
    const started = await org.post('/callbacks', {
      list_id: list.body.id,
      initiated_by: adminId,
      assignment_id: stationId,
      start: '2035-06-10 07:00:00',
      end: '2035-06-11 07:00:00',
      positions_to_fill: 2,
      deadline: '2036-01-01T00:00:00+00:00',
    });
    expect(started.status, started.text).toBe(201);
    const runner = createCallbackRunner(server.app, { baseUrl: server.url });
    expect(await runner.runOnce(new Date().toISOString())).toEqual({ contacted: 2 });
    await runner.stop();

    const own = await member.get(`/users/${memberId}/callback_offers`);
    expect(own.status, own.text).toBe(200);
    expect(own.body.map((o: { callback_id: number }) => o.callback_id)).toEqual([started.body.id]);
    expect((await member.get(`/users/${colleagueId}/callback_offers`)).status).toBe(403);

    const theirs = await admin.get(`/users/${colleagueId}/callback_offers`);
    expect(theirs.status, theirs.text).toBe(200);
    expect(theirs.body).toHaveLength(1);
    const offerId = theirs.body[0].id;
    expect((await member.post(`/users/${colleagueId}/callback_offers/${offerId}`, { answer: 'decline' })).status).toBe(
      403,
    );
    expect((await member.post(`/users/${memberId}/callback_offers/${offerId}`, { answer: 'decline' })).status).toBe(
      404,
    );
    const answered = await admin.post(`/users/${colleagueId}/callback_offers/${offerId}`, { answer: 'accept' });
    expect(answered.status, answered.text).toBe(200);
    const users = (await org.get(`/callbacks/${started.body.id}/users`)).body as Array<Record<string, string>>;
    expect(users.map((u) => [u.id, u.status]).sort()).toEqual(
      [
        [String(memberId), 'pending'],
        [String(colleagueId), 'accepted'],
      ].sort(),
    );
    expect((await admin.get(`/users/${colleagueId}/callback_offers`)).body).toEqual([]);
  });
});
