import { createECDH, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestOrg, type TestServer } from '../../../test/helpers/server.js';

/**
 * Subscriptions are the organization's and the user's own (issue 41, F9).
 * Offers by push: callbacks/channels/push.test.ts.
 */

let server: TestServer;
let org: TestOrg;
let other: TestOrg;

beforeAll(async () => {
  server = await startServer({
    push: { subject: 'mailto:dispatch@crewplan.test', publicKey: undefined, privateKey: undefined },
    webhookAllowPrivate: true,
  });
  org = await server.newOrg();
  other = await server.newOrg();
});
afterAll(() => server.close());

/** A browser's subscription of the endpoint: fresh keys each time. */
function subscription(endpoint: string) {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return {
    endpoint,
    keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') },
  };
}

const endpointsOf = async (tenant: TestOrg, userId: number) =>
  ((await tenant.get(`/users/${userId}/push_subscriptions`)).body as Array<{ endpoint: string }>).map(
    (s) => s.endpoint,
  );

describe('POST /users/{id}/push_subscriptions', () => {
  it("subscribing an endpoint never removes another organization's or another user's subscription of it", async () => {
    const endpoint = 'https://127.0.0.1:9/devices/shared-device';
    const member = await org.createUser({ first_name: 'Push', last_name: 'Member' });
    const coworker = await org.createUser({ first_name: 'Push', last_name: 'Coworker' });
    const stranger = await other.createUser({ first_name: 'Push', last_name: 'Stranger' });
    expect((await org.post(`/users/${member}/push_subscriptions`, subscription(endpoint))).status).toBe(201);
    const foreign = await other.post(`/users/${stranger}/push_subscriptions`, subscription(endpoint));
    expect(foreign.status, foreign.text).toBe(201);
    const sameOrg = await org.post(`/users/${coworker}/push_subscriptions`, subscription(endpoint));
    expect(sameOrg.status, sameOrg.text).toBe(201);
    expect(await endpointsOf(org, member)).toEqual([endpoint]);
    expect(await endpointsOf(org, coworker)).toEqual([endpoint]);
    expect(await endpointsOf(other, stranger)).toEqual([endpoint]);
  });

  it('subscribing the same endpoint again replaces the user’s own subscription (one row, the new keys)', async () => {
    const endpoint = 'https://127.0.0.1:9/devices/again';
    const member = await org.createUser({ first_name: 'Push', last_name: 'Again' });
    const first = await org.post(`/users/${member}/push_subscriptions`, subscription(endpoint));
    const second = await org.post(`/users/${member}/push_subscriptions`, subscription(endpoint));
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(await endpointsOf(org, member)).toEqual([endpoint]);
    const parallel = await Promise.all(
      Array.from({ length: 10 }, () => org.post(`/users/${member}/push_subscriptions`, subscription(endpoint))),
    );
    expect(parallel.map((r) => r.status)).toEqual(Array(10).fill(201));
    expect(await endpointsOf(org, member)).toEqual([endpoint]);
  });
});
