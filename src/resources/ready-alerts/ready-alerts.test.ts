import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { expectAuthRequired, expectNotFoundForOtherOrg } from '../../../test/helpers/common.js';
import { startServer, type TestOrg, type TestServer } from '../../../test/helpers/server.js';

interface Mail {
  from: string;
  to: string[];
  raw: string;
}

let smtp: SMTPServer;
const mails: Mail[] = [];
let server: TestServer;
let org: TestOrg;
let other: TestOrg;
let senderId: number;

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (address.address.startsWith('bounce')) return callback(new Error('mailbox unavailable'));
      callback();
    },
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
      stream.on('end', () => {
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  // given back in afterAll: test files share their worker's process (vitest.config.ts)
  vi.stubEnv('SMTP_HOST', '127.0.0.1');
  vi.stubEnv('SMTP_PORT', String((smtp.server.address() as AddressInfo).port));
  vi.stubEnv('SMTP_FROM', 'Dispatch <alerts@crewplan.test>');
  server = await startServer();
  org = await server.newOrg({ name: 'Station Nine' });
  other = await server.newOrg();
  senderId = await org.createUser({ first_name: 'Boss', last_name: 'Doe', role: 'Chief', mail: 'boss@example.com' });
});
afterAll(async () => {
  await server.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
  vi.unstubAllEnvs();
});

const userRef = (id: number, name: string) => ({ id, name, href: `${server.url}/v1/users/${id}` });

async function waitFor<T>(probe: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Until the groups and lists resources have write routes, memberships are put in their tables directly. */
async function addToGroup(target: TestOrg, userIds: number[]): Promise<number> {
  const db = server.app.db;
  const { id } = await db
    .insertInto('user_group')
    .values({ organization_id: target.orgId, name: 'Engine 9', created_at: new Date().toISOString() })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (const userId of userIds)
    await db
      .insertInto('user_group_member')
      .values({ organization_id: target.orgId, user_id: userId, group_id: id })
      .execute();
  return id;
}

async function addToList(target: TestOrg, userIds: number[]): Promise<number> {
  const db = server.app.db;
  const { id } = await db
    .insertInto('callback_list')
    .values({
      organization_id: target.orgId,
      name: 'Paramedics',
      max_consecutive_hours: 0,
      weekly_limit: 0,
      monthly_limit: 0,
      yearly_limit: 0,
      position: 0,
      ordering: 'rotating',
      created_at: new Date().toISOString(),
      deleted_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (const [position, userId] of userIds.entries()) {
    await db
      .insertInto('user_callback_list')
      .values({ organization_id: target.orgId, user_id: userId, list_id: id, position })
      .execute();
  }
  return id;
}

async function alertRecipients(target: TestOrg, id: number): Promise<number[]> {
  const alert = await target.get(`/ready_alerts/${id}`);
  return alert.body.deliveries
    .filter((d: { channel: string }) => d.channel === 'app')
    .map((d: { user: { id: number } }) => d.user.id);
}

/** POST /ready_alerts from the sender to the `ids` of `type`, expecting 201: the users it reached. */
async function alertedBySender(type: string, ids: unknown[], body: string) {
  const response = await org.post('/ready_alerts', { type, ids, body, user_id: senderId });
  expect(response.status).toBe(201);
  return alertRecipients(org, response.body.id);
}

describe('POST /ready_alerts', () => {
  it('alerts every active user for type all, as the sample sends it, and records the deliveries', async () => {
    const fresh = await server.newOrg();
    const boss = await fresh.createUser({ first_name: 'Boss', last_name: 'Doe' });
    const crew = await fresh.createUser({ first_name: 'Crew', last_name: 'Member' });
    const response = await fresh.post('/ready_alerts', {
      type: 'all',
      ids: null,
      body: '2nd alarm fire in town. Please respond ASAP!',
      user_id: String(boss),
      email: 0,
    });
    expect(response).toSucceed(201, 'Ready alert sent to 2 users.', {
      id: expect.any(Number),
      recipients: 2,
    });
    const alert = await fresh.get(`/ready_alerts/${response.body.id}`);
    const iso = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/);
    const recorded = (id: number, name: string) => ({
      user: userRef(id, name),
      channel: 'app',
      address: null,
      state: 'recorded',
      error: null,
      updated_at: iso,
    });
    expect(alert.body).toEqual({
      id: response.body.id,
      type: 'all',
      ids: null,
      body: '2nd alarm fire in town. Please respond ASAP!',
      sender: userRef(boss, 'Boss Doe'),
      email: false,
      created_at: iso,
      deliveries: [recorded(boss, 'Boss Doe'), recorded(crew, 'Crew Member')],
    });
    const logs = await fresh.get('/logs');
    expect(logs.body.data[0].event_description).toBe('Boss Doe sent a ready alert (all) to 2 users.');
  });

  it('alerts the given users for type user', async () => {
    const a = await org.createUser();
    await org.createUser();
    const response = await org.post('/ready_alerts', { type: 'user', ids: [a], body: 'Call in', user_id: senderId });
    expect(response.status).toBe(201);
    expect(response.body.recipients).toBe(1);
    expect(await alertRecipients(org, response.body.id)).toEqual([a]);
  });

  it('alerts users whose role matches for type classification (case-insensitive)', async () => {
    const fresh = await server.newOrg();
    const sender = await fresh.createUser({ role: 'Chief' });
    const medic = await fresh.createUser({ role: 'Paramedic' });
    const captain = await fresh.createUser({ role: 'Captain' });
    await fresh.createUser({ role: 'Engineer' });
    const response = await fresh.post('/ready_alerts', {
      type: 'classification',
      ids: ['paramedic', 'Captain', 'Astronaut'],
      body: 'x',
      user_id: sender,
    });
    expect(response.status).toBe(201);
    expect(response.body.recipients).toBe(2);
    expect(await alertRecipients(fresh, response.body.id)).toEqual([medic, captain]);
  });

  it('alerts the members of groups for type group', async () => {
    const a = await org.createUser();
    const b = await org.createUser();
    await org.createUser();
    const groupId = await addToGroup(org, [a, b]);
    expect(await alertedBySender('group', [groupId], 'Engine 9 needed')).toEqual([a, b]);
  });

  it('alerts the users on callback lists for type title', async () => {
    const a = await org.createUser();
    const b = await org.createUser();
    const listId = await addToList(org, [b, a]);
    expect(await alertedBySender('title', [String(listId)], 'Medics needed')).toEqual([a, b]);
  });

  it('rejects ids that name nothing of the organization', async () => {
    const foreignUser = await other.createUser();
    const foreignGroup = await addToGroup(other, [foreignUser]);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ type: 'user', ids: [foreignUser] }, 'The selected user id is invalid.'],
      [{ type: 'group', ids: [foreignGroup] }, 'The selected group id is invalid.'],
      [{ type: 'title', ids: [999999] }, 'The selected title id is invalid.'],
      [{ type: 'user', ids: ['abc'] }, 'The selected user id is invalid.'],
      [{ type: 'group' }, 'The ids field is required unless type is all.'],
      [{ type: 'user', ids: [] }, 'The ids field is required unless type is all.'],
    ];
    for (const [body, message] of cases) {
      const response = await org.post('/ready_alerts', { body: 'x', user_id: senderId, ...body });
      expect(response.status, message).toBe(422);
      expect(response).toBeInvalid([message]);
    }
  });

  it('validates type, body and the sender', async () => {
    const badType = await org.post('/ready_alerts', { type: 'everyone', body: 'x', user_id: senderId });
    expect(badType).toBeInvalid(['The selected type is invalid.']);
    const noBody = await org.post('/ready_alerts', { type: 'all', user_id: senderId });
    expect(noBody).toBeInvalid(['The body field is required.']);
    const noSender = await org.post('/ready_alerts', { type: 'all', body: 'x' });
    expect(noSender).toBeInvalid(['The user id field is required.']);
    const foreignSender = await org.post('/ready_alerts', {
      type: 'all',
      body: 'x',
      user_id: await other.createUser(),
    });
    expect(foreignSender).toBeInvalid(['The selected user id is invalid.']);
  });

  it('sends e-mail through the SMTP server when email is true, and records each outcome', async () => {
    const fresh = await server.newOrg({ name: 'Station Ten' });
    const sender = await fresh.createUser({ first_name: 'Ann', last_name: 'Chief', mail: 'ann@example.com' });
    const reachable = await fresh.createUser({ first_name: 'Rea', last_name: 'Chable', mail: 'rea@example.com' });
    const bouncing = await fresh.createUser({ first_name: 'Bo', last_name: 'Unce', mail: 'bounce@example.com' });
    const response = await fresh.post('/ready_alerts', {
      type: 'user',
      ids: [reachable, bouncing],
      body: 'Structure fire, report to Station 10.',
      user_id: sender,
      email: true,
    });
    expect(response.status).toBe(201);

    const deliveries = await waitFor(async () => {
      const alert = await fresh.get(`/ready_alerts/${response.body.id}`);
      const email = alert.body.deliveries.filter((d: { channel: string }) => d.channel === 'email');
      return email.every((d: { state: string }) => d.state !== 'pending') ? alert.body.deliveries : undefined;
    });
    const iso = expect.any(String);
    expect(deliveries).toEqual([
      {
        user: userRef(reachable, 'Rea Chable'),
        channel: 'app',
        address: null,
        state: 'recorded',
        error: null,
        updated_at: iso,
      },
      {
        user: userRef(reachable, 'Rea Chable'),
        channel: 'email',
        address: 'rea@example.com',
        state: 'sent',
        error: null,
        updated_at: iso,
      },
      {
        user: userRef(bouncing, 'Bo Unce'),
        channel: 'app',
        address: null,
        state: 'recorded',
        error: null,
        updated_at: iso,
      },
      {
        user: userRef(bouncing, 'Bo Unce'),
        channel: 'email',
        address: 'bounce@example.com',
        state: 'failed',
        error: expect.stringContaining('mailbox unavailable'),
        updated_at: iso,
      },
    ]);
    const mail = mails.find((m) => m.to.includes('rea@example.com'));
    expect(mail).toBeDefined();
    expect(mail!.from).toBe('alerts@crewplan.test');
    expect(mail!.raw).toContain('Subject: Ready alert: Station Ten');
    expect(mail!.raw).toContain('Structure fire, report to Station 10.');
  });

  it('records an e-mail as skipped for a user without an address, and sends none when email is false', async () => {
    const fresh = await server.newOrg();
    const sender = await fresh.createUser();
    // a new user needs an address; one may remove it later
    expect((await fresh.patch(`/users/${sender}`, { mail: [] })).status).toBe(200);
    const before = mails.length;
    const silent = await fresh.post('/ready_alerts', {
      type: 'user',
      ids: [sender],
      body: 'x',
      user_id: sender,
      email: false,
    });
    const withEmail = await fresh.post('/ready_alerts', {
      type: 'user',
      ids: [sender],
      body: 'y',
      user_id: sender,
      email: true,
    });
    expect(
      (await fresh.get(`/ready_alerts/${silent.body.id}`)).body.deliveries.map((d: { channel: string }) => d.channel),
    ).toEqual(['app']);
    const alert = await fresh.get(`/ready_alerts/${withEmail.body.id}`);
    expect(alert.body.deliveries[1]).toEqual({
      user: expect.any(Object),
      channel: 'email',
      address: null,
      state: 'skipped',
      error: 'The user has no e-mail address.',
      updated_at: expect.any(String),
    });
    expect(mails.length).toBe(before);
  });

  it('requires a token', async () => {
    await expectAuthRequired(server, 'POST', '/ready_alerts', { type: 'all', body: 'x', user_id: 1 });
  });
});

describe('GET /ready_alerts/{id} (extension)', () => {
  it("answers 404 for another organization's alert", async () => {
    const response = await org.post('/ready_alerts', { type: 'all', body: 'x', user_id: senderId });
    await expectNotFoundForOtherOrg(other, 'GET', `/ready_alerts/${response.body.id}`);
    const missing = await org.get('/ready_alerts/999999');
    expect(missing).toBeNotFound('ReadyAlert');
  });

  it('requires a token', async () => {
    await expectAuthRequired(server, 'GET', '/ready_alerts/1');
  });
});
