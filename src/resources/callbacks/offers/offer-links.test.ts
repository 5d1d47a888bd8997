import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startServer, type TestOrg, type TestServer } from '../../../../test/helpers/server.js';
import { buildApp } from '../../../app.js';
import { createAssignment } from '../../rotations/test-fixtures.js';
import { createCallbackRunner, type CallbackRunner } from '../runner/runner.js';
import { catchMail, listOf, logText, startCallbackOn } from '../test-fixtures.js';

/**
 * The routes without a bearer token (issue 41, F3): every one is limited per client address, the
 * offer links, inbound SMS and feeds in the database (one budget for every process); a refused
 * offer link is logged once per link and hour, not once per request.
 */

const LIMIT = 5;
let mail: Awaited<ReturnType<typeof catchMail>>;
let server: TestServer;
let limited: TestServer;
let org: TestOrg;
let runner: CallbackRunner;

const TOO_MANY = {
  status: 429,
  error: 'too_many_requests',
  error_message: expect.stringMatching(/^Too many requests\. Retry in .+\.$/),
};

beforeAll(async () => {
  mail = await catchMail();
  server = await startServer();
  limited = await startServer({ publicRateLimitPerMinute: LIMIT });
  org = await server.newOrg();
  runner = createCallbackRunner(server.app, { baseUrl: server.url });
});
afterAll(async () => {
  await runner.stop();
  await server.close();
  await limited.close();
  await mail.close();
});

describe('a refused offer link', () => {
  it('is logged once per link and hour, however often it is requested', async () => {
    const adminId = await org.createUser({ first_name: 'Chief', last_name: 'Admin' });
    const stationId = await createAssignment(org, {
      name: 'Engine 4',
      start: '2032-09-01 07:00:00',
      end: '2032-09-02 07:00:00',
    });
    const member = await org.createUser({ first_name: 'Used', last_name: 'Link', mail: 'used@example.com' });
    const listId = await listOf(org, 'Used list', [member]);
    const { id } = await startCallbackOn({ org, adminId, stationId }, listId, '2032-09-03');
    await runner.runOnce(new Date().toISOString());
    await vi.waitFor(() => expect(mail.mails.filter((m) => m.to.includes('used@example.com'))).toHaveLength(1));
    const token = /\/offers\/(cpo_[A-Za-z0-9_-]+)/.exec(mail.mails[0]!.text)![1];
    const link = `${server.url}/offers/${token}`;
    const answer = (value: string) =>
      server.request('POST', link, { body: { answer: value }, form: true, token: null });
    expect((await answer('decline')).status).toBe(200);

    const views = await Promise.all(Array.from({ length: 30 }, () => server.request('GET', link, { token: null })));
    const posts = await Promise.all(Array.from({ length: 10 }, (_, i) => answer(i % 2 ? 'accept' : 'decline')));
    expect([...views, ...posts].map((r) => r.status)).toEqual(Array(40).fill(410));
    expect(views[0]!.text).toContain('This link has already been used.');
    const refusals = (await logText(org)).match(/refused a callback #\d+ offer link/g) ?? [];
    expect(refusals).toHaveLength(1);
    expect(await logText(org)).toContain(`refused a callback #${id} offer link of user #${member}`);
  });
});

describe('an offer link accepted after the seat was filled from the board', () => {
  it('is refused with 409 and places no one (the seat is re-read under the assignment lock)', async () => {
    const adminId = await org.createUser({ first_name: 'Board', last_name: 'Admin', role: 'Admin' });
    const stationId = await createAssignment(org, {
      name: 'Engine 9',
      start: '2032-10-01 07:00:00',
      end: '2032-10-02 07:00:00',
    });
    const member = await org.createUser({ first_name: 'Late', last_name: 'Link', mail: 'late@example.com' });
    const filler = await org.createUser({ first_name: 'Board', last_name: 'Fill' });
    const listId = await listOf(org, 'Late list', [member]);
    const { id } = await startCallbackOn({ org, adminId, stationId }, listId, '2032-10-05');
    await runner.runOnce(new Date().toISOString());
    const sent = () => mail.mails.filter((m) => m.to.includes('late@example.com'));
    await vi.waitFor(() => expect(sent()).toHaveLength(1));
    const token = /\/offers\/(cpo_[A-Za-z0-9_-]+)/.exec(sent()[0]!.text)![1];
    const seat = { date: '2032-10-05', start: '2032-10-05 07:00:00', end: '2032-10-06 07:00:00' };
    const types = (await org.get('/work_types')).body as Array<{ id: number }>;
    const fill = await org.post('/shifts', {
      assignment_id: stationId,
      user_id: filler,
      ...seat,
      work_type_id: types[0]!.id,
      admin_id: adminId,
      for_vacancy: seat,
    });
    expect(fill.status, fill.text).toBe(201);
    const accepted = await server.request('POST', `${server.url}/offers/${token}`, {
      body: { answer: 'accept' },
      form: true,
      token: null,
    });
    expect(accepted.status, accepted.text).toBe(409);
    const placed = await org.get('/shifts', { query: { user_id: member, start: seat.start, end: seat.end } });
    expect(placed.body).toEqual([]);
    expect((await org.get(`/callbacks/${id}`)).body.status).toBe('active');
  });
});

describe('the rate limit of public routes, per client address', () => {
  const get = (path: string) => limited.request('GET', `${limited.url}${path}`, { token: null });

  it('refuses offer links past the budget with 429, Retry-After and the spec error', async () => {
    for (let i = 0; i < LIMIT; i += 1) expect((await get('/offers/cpo_unknownunknownunknown')).status).toBe(404);
    const refused = await get('/offers/cpo_unknownunknownunknown');
    expect(refused).toAnswer(429, TOO_MANY);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // a POST to a link shares the budget
    const post = await limited.request('POST', `${limited.url}/offers/cpo_unknownunknownunknown`, {
      body: { answer: 'accept' },
      form: true,
      token: null,
    });
    expect(post.status).toBe(429);
  });

  it('limits calendar feeds and inbound SMS, each with its own budget', async () => {
    for (let i = 0; i < LIMIT; i += 1) expect((await get('/feeds/cpf_unknownunknownunknown.ics')).status).toBe(404);
    expect(await get('/feeds/cpf_unknownunknownunknown.ics')).toAnswer(429, TOO_MANY);
    const inbound = () =>
      limited.request('POST', `${limited.url}/sms/inbound`, {
        body: { From: '+15550001111' },
        form: true,
        token: null,
      });
    for (let i = 0; i < LIMIT; i += 1) expect((await inbound()).status).toBe(401);
    expect(await inbound()).toAnswer(429, TOO_MANY);
  });

  it('counts in the database: a second process over the same database shares the budget', async () => {
    const second = await buildApp(limited.config, { handle: limited.app.dbHandle, logger: false });
    try {
      const path = '/offers/cpo_sharedsharedsharedshared';
      // a fresh address for both: inject's requests come from 127.0.0.9
      const fromSecond = () => second.inject({ method: 'GET', url: path, remoteAddress: '127.0.0.9' });
      const fromFirst = () => limited.app.inject({ method: 'GET', url: path, remoteAddress: '127.0.0.9' });
      for (let i = 0; i < 3; i += 1) expect((await fromFirst()).statusCode).toBe(404);
      for (let i = 0; i < 2; i += 1) expect((await fromSecond()).statusCode).toBe(404);
      expect((await fromSecond()).statusCode).toBe(429);
      expect((await fromFirst()).statusCode).toBe(429);
    } finally {
      await second.close();
    }
  });

  it('limits the other anonymous routes too (health, docs, web app), in each process', async () => {
    const fromAddress = () => limited.app.inject({ method: 'GET', url: '/healthz', remoteAddress: '127.0.0.10' });
    for (let i = 0; i < LIMIT; i += 1) expect((await fromAddress()).statusCode).toBe(200);
    const refused = await fromAddress();
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual(TOO_MANY);
    // another address has its own budget
    expect((await limited.app.inject({ method: 'GET', url: '/healthz', remoteAddress: '127.0.0.11' })).statusCode).toBe(
      200,
    );
  });
});
