import type { KyselyPlugin } from 'kysely';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { TestOrg, TestServer } from '../../../../test/helpers/server.js';
import { createDatabase } from '../../../core/db/index.js';
import { workTypeId } from '../../rotations/test-fixtures.js';
import { createShift } from '../../shifts/test-fixtures.js';
import { createCallbackRunner } from './runner.js';
import { at, callbackScene, type CaughtMail, listOf, runnerSuite, startCallbackOn, usersOf } from '../test-fixtures.js';

type Mail = CaughtMail;

const suite = runnerSuite({ mail: true });
let server: TestServer;
let org: TestOrg;
let adminId: number;
let stationId: number;

beforeAll(async () => {
  server = suite.server;
  const chief = { first_name: 'Chief', last_name: 'Admin', mail: 'chief@example.com' };
  ({ org, adminId, stationId } = await callbackScene(server, 'Station Nine', chief, {
    name: 'Engine 9',
    date: '2032-03-01',
  }));
});

/** A runner of the test server; `withoutSmtp`: as if no SMTP server were configured. */
const runner = (options: { withoutSmtp?: boolean } = {}) => suite.runner(options.withoutSmtp ? 'smtp' : undefined);

async function crew(prefix: string, count: number): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 1; i <= count; i += 1)
    ids.push(
      await org.createUser({ first_name: prefix, last_name: `M${i}`, mail: `${prefix.toLowerCase()}${i}@example.com` }),
    );
  return ids;
}

const callbackOn = async (listId: number, date: string, extra: Record<string, unknown> = {}) =>
  (await startCallbackOn({ org, adminId, stationId }, listId, date, extra)).id;

const mailsTo = suite.mailsTo;
const linkIn = (mail: Mail) => /\/offers\/(cpo_[A-Za-z0-9_-]+)/.exec(mail.text)![1];
const offerLink = (address: string) => linkIn(mailsTo(address).find((m) => m.subject.startsWith('Callback offer'))!);
const answer = (token: string, value: 'accept' | 'decline') =>
  server.request('POST', `${server.url}/offers/${token}`, { body: { answer: value }, form: true, token: null });
const view = (token: string) => server.request('GET', `${server.url}/offers/${token}`, { token: null });

/** Mail goes out after the runner's pass returns: wait for it to arrive. */
async function arrived(address: string, count: number): Promise<void> {
  await vi.waitFor(() => expect(mailsTo(address)).toHaveLength(count), { timeout: 5000, interval: 20 });
}

/**
 * Which of the callback's users have been contacted, in position order (each runner pass serves every due callback).
 */
const contacted = async (id: number) => (await usersOf(org, id)).map((u) => u.contact_time !== null);

describe('the callback runner', () => {
  it('offers in order, moves on after the window, fills by link, tells the admin, leaves the rest alone', async () => {
    const [first, second, third] = await crew('Fill', 3);
    const listId = await listOf(org, 'Fill list', [first, second, third]);
    const id = await callbackOn(listId, '2032-03-10');
    const clock = new Date().toISOString();
    const run = runner();

    expect(await run.runOnce(clock)).toEqual({ contacted: 1 });
    await arrived('fill1@example.com', 1);
    const firstLink = offerLink('fill1@example.com');
    let users = await usersOf(org, id);
    expect(users[0]).toMatchObject({
      id: String(first),
      status: 'pending',
      contact_method: 'Email',
      uses_opportunity: '1',
    });
    expect(users[0].contact_time).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(users[1].contact_time).toBeNull();

    // within the window nothing moves
    expect(await run.runOnce(at(clock, 10))).toEqual({ contacted: 0 });
    // the window passes: no answer, the next one is offered
    expect(await run.runOnce(at(clock, 31))).toEqual({ contacted: 1 });
    await arrived('fill2@example.com', 1);
    users = await usersOf(org, id);
    expect(users.map((u) => u.status)).toEqual(['no answer', 'pending', 'pending']);
    expect((await view(firstLink)).status).toBe(410);

    const link = offerLink('fill2@example.com');
    const page = await view(link);
    expect(page.status).toBe(200);
    expect(page.text).toContain('2032-03-10 07:00:00 to 2032-03-11 07:00:00');
    expect(page.text).toContain('value="accept"');
    const accepted = await answer(link, 'accept');
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.text).toContain('You accepted');

    expect((await org.get(`/callbacks/${id}`)).body.status).toBe('filled');
    users = await usersOf(org, id);
    expect(users.map((u) => u.status)).toEqual(['no answer', 'accepted', 'pending']);
    expect(users[1].response_time).not.toBeNull();

    const schedule = await org.get('/schedule', {
      query: { start: '2032-03-10 00:00:00', end: '2032-03-11 00:00:00' },
    });
    const day = schedule.body.days.find((d: any) => d.date === '2032-03-10');
    expect(day.assignments.flatMap((a: any) => a.shifts).map((s: any) => s.user.id)).toContain(second);
    const vacancies = await org.get('/vacancies', {
      query: { start: '2032-03-10 00:00:00', end: '2032-03-11 00:00:00' },
    });
    expect(vacancies.status, vacancies.text).toBe(200);
    expect(vacancies.body.filter((v: any) => v.date === '2032-03-10' && v.assignment.id === stationId)).toEqual([]);

    // the next pass confirms, reports to the admin, and contacts nobody else
    expect(await run.runOnce(at(clock, 32))).toEqual({ contacted: 0 });
    await arrived('fill2@example.com', 2);
    await arrived('chief@example.com', 1);
    expect(mailsTo('fill2@example.com').map((m) => m.subject)).toEqual([
      'Callback offer: 2032-03-10 07:00:00 to 2032-03-11 07:00:00',
      'Confirmed: callback 2032-03-10 07:00:00 to 2032-03-11 07:00:00',
    ]);
    expect(mailsTo('chief@example.com').map((m) => m.subject)).toEqual([`Callback #${id} filled: 1 of 1`]);
    expect(await run.runOnce(at(clock, 120))).toEqual({ contacted: 0 });
    expect(mailsTo('fill3@example.com')).toEqual([]);
  });

  it('ends at the deadline: the admin is told it was not filled and the open link is withdrawn', async () => {
    const members = await crew('Late', 2);
    const listId = await listOf(org, 'Late list', members);
    const id = await callbackOn(listId, '2032-03-12', { deadline: at(new Date().toISOString(), 45) });
    const clock = new Date().toISOString();
    const run = runner();
    await run.runOnce(clock);
    await vi.waitFor(() => expect(mailsTo('late1@example.com')).toHaveLength(1));
    await run.runOnce(at(clock, 60));
    expect(await contacted(id)).toEqual([true, false]);
    await vi.waitFor(() =>
      expect(mailsTo('chief@example.com').map((m) => m.subject)).toContain(`Callback #${id} not filled: 0 of 1`),
    );
    expect((await view(offerLink('late1@example.com'))).status).toBe(410);
    expect(mailsTo('late2@example.com')).toEqual([]);
  });

  it('refuses reused, altered and expired links, and logs the refusals', async () => {
    const members = await crew('Link', 2);
    const listId = await listOf(org, 'Link list', members);
    const clock = new Date().toISOString();
    const id = await callbackOn(listId, '2032-03-14', { positions_to_fill: 2, scheduled_to: at(clock, -180) });
    await listOf(org, 'unused', []);
    const run = runner();
    // an offer made two hours ago with a 30-minute window has expired by now
    await run.runOnce(at(clock, -120));
    await vi.waitFor(() => expect(mailsTo('link1@example.com')).toHaveLength(1));
    const expired = offerLink('link1@example.com');
    expect((await view(expired)).status).toBe(410);
    expect((await answer(expired, 'accept')).text).toContain('expired');

    await run.runOnce(clock);
    await vi.waitFor(() => expect(mailsTo('link2@example.com')).toHaveLength(1));
    const link = offerLink('link2@example.com');
    const altered = link.slice(0, -2) + (link.endsWith('AA') ? 'BB' : 'AA');
    expect((await view(altered)).status).toBe(404);
    expect((await answer(link, 'decline')).status).toBe(200);
    const reused = await answer(link, 'accept');
    expect(reused.status).toBe(410);
    expect(reused.text).toContain('already been used');
    expect((await usersOf(org, id))[1].status).toBe('denied');

    const log = await org.get('/logs', { query: { limit: 200 } });
    const refused = JSON.stringify(log.body).match(/refused a callback/g) ?? [];
    expect(refused.length).toBeGreaterThanOrEqual(3);
    expect(JSON.stringify(log.body)).not.toContain(link);
  });

  it('two runners over one database contact each person once', async () => {
    const members = await crew('Pair', 4);
    const listId = await listOf(org, 'Pair list', members, { contact_at_once: 2 });
    const id = await callbackOn(listId, '2032-03-16', { positions_to_fill: 2 });
    const clock = new Date().toISOString();
    const [a, b] = [runner(), runner()];
    await Promise.all([a.runOnce(clock), b.runOnce(clock), a.runOnce(clock), b.runOnce(clock)]);
    expect(await contacted(id)).toEqual([true, true, false, false]);
    await Promise.all([a.runOnce(at(clock, 5)), b.runOnce(at(clock, 5))]);
    await vi.waitFor(() => expect(suite.mails.filter((m) => m.to[0].startsWith('pair'))).toHaveLength(2));
    expect(mailsTo('pair1@example.com')).toHaveLength(1);
    expect(mailsTo('pair2@example.com')).toHaveLength(1);
    expect(mailsTo('pair3@example.com')).toEqual([]);
  });

  it('an answer between selecting a callback and leasing it is seen: no false end-of-list notice', async () => {
    const [only] = await crew('Stale', 1);
    const listId = await listOf(org, 'Stale list', [only]);
    const id = await callbackOn(listId, '2032-03-17');
    const clock = new Date().toISOString();
    await runner().runOnce(clock);
    await arrived('stale1@example.com', 1);
    // the next pass selects the callback as it is, then the person accepts by link before the pass
    // takes the lease (a request to another process): the pass must go by the callback as it is then
    let answered = false;
    const acceptAfterSelection: KyselyPlugin = {
      transformQuery: (args) => args.node,
      async transformResult({ result }) {
        const rows = result.rows as Array<Record<string, unknown>>;
        if (!answered && rows.some((row) => row.id === id && 'contact_window_minutes' in row)) {
          answered = true;
          expect((await answer(offerLink('stale1@example.com'), 'accept')).status).toBe(200);
        }
        return result;
      },
    };
    // a connection of its own, as another process has: the link's answer does not wait for it
    const own = createDatabase(server.app.config);
    const racing = createCallbackRunner(server.app, {
      baseUrl: server.url,
      db: own.db.withPlugin(acceptAfterSelection),
    });
    suite.track(racing);
    try {
      await racing.runOnce(at(clock, 1));
      expect(answered).toBe(true);
      await arrived('stale1@example.com', 2);
    } finally {
      await own.db.destroy();
    }
    await runner().runOnce(at(clock, 2));
    const told = () => mailsTo('chief@example.com').filter((m) => m.subject.startsWith(`Callback #${id} `));
    await vi.waitFor(() => expect(told().map((m) => m.subject)).toContain(`Callback #${id} filled: 1 of 1`));
    expect(told().map((m) => m.subject)).toEqual([`Callback #${id} filled: 1 of 1`]);
  });

  it('a restarted runner resumes from the database', async () => {
    const members = await crew('Again', 3);
    const listId = await listOf(org, 'Again list', members);
    const id = await callbackOn(listId, '2032-03-18');
    const clock = new Date().toISOString();
    const before = runner();
    await before.runOnce(clock);
    expect(await contacted(id)).toEqual([true, false, false]);
    await before.stop();
    const after = runner();
    await after.runOnce(at(clock, 5));
    expect(await contacted(id)).toEqual([true, false, false]);
    await after.runOnce(at(clock, 31));
    expect(await contacted(id)).toEqual([true, true, false]);
    await vi.waitFor(() => expect(mailsTo('again2@example.com')).toHaveLength(1));
    expect(mailsTo('again1@example.com')).toHaveLength(1);
    expect((await usersOf(org, id)).map((u) => u.status)).toEqual(['no answer', 'pending', 'pending']);
  });

  it('passes over someone who took other work since the callback started, with the reason', async () => {
    const [busy, free] = await crew('Skip', 2);
    const listId = await listOf(org, 'Skip list', [busy, free]);
    const id = await callbackOn(listId, '2032-03-20');
    await createShift(org, stationId, busy, '2032-03-20 07:00:00', '2032-03-20 19:00:00', {
      work_type_id: await workTypeId(org),
    });
    await runner().runOnce(new Date().toISOString());
    expect(await contacted(id)).toEqual([false, true]);
    await vi.waitFor(() => expect(mailsTo('skip2@example.com')).toHaveLength(1));
    expect(mailsTo('skip1@example.com')).toEqual([]);
    const log = await org.get('/logs', { query: { limit: 200 } });
    expect(JSON.stringify(log.body)).toContain(`passed over user #${busy} on callback #${id}: already working`);
  });
});

describe('channels without configuration', () => {
  it('records in the callback log that e-mail and webhooks are off', async () => {
    const run = runner({ withoutSmtp: true });
    const [member] = await crew('Quiet', 1);
    const listId = await listOf(org, 'Quiet list', [member]);
    const id = await callbackOn(listId, '2032-03-22');
    await run.runOnce(new Date().toISOString());
    expect(await contacted(id)).toEqual([true]);
    const log = JSON.stringify((await org.get('/logs', { query: { limit: 200 } })).body);
    expect(log).toContain(`offered callback #${id}`);
    expect(log).toContain('on no channel');
    expect(log).toContain('e-mail is off: No SMTP server is configured (SMTP_HOST).');
    expect(log).toContain('webhook is off: no endpoint subscribed to callback.offered');
    expect(mailsTo('quiet1@example.com')).toEqual([]);
  });
});
