import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { scratchDatabase, type ScratchDatabase } from './databases.js';
import {
  accessToken,
  type Client,
  client,
  createOrgWithCli,
  type ServerProcess,
  startServerProcess,
  stop,
  stopAll,
} from './server-processes.js';

/**
 * The callback runner in real server processes (docs/workflows.md, "The callback runner"): two
 * processes on one database (a SQLite file, or with TEST_DATABASE_URL a PostgreSQL schema) both
 * run it every CALLBACK_RUNNER_POLL_MS, and send their offers through an SMTP server on loopback
 * that counts every message. Each person is contacted once; a process killed mid-callback and
 * another started in its place resume from the database without contacting anyone again.
 */

const POLL_MS = 100;
/** Passes of every runner after the last expected message, in which nothing more may arrive. */
const QUIET_MS = 40 * POLL_MS;

interface Mail {
  to: string;
  subject: string;
  text: string;
}

let smtp: SMTPServer;
let smtpPort: number;
const mails: Mail[] = [];
let database: ScratchDatabase | undefined;

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
      stream.on('end', () => {
        const unfolded = raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
        const subject = /^Subject: (.*)$/m.exec(unfolded)?.[1]?.trim() ?? '';
        for (const to of session.envelope.rcptTo) mails.push({ to: to.address, subject, text: unfolded });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  smtpPort = (smtp.server.address() as AddressInfo).port;
});
afterEach(async () => {
  await stopAll();
  await database?.cleanup();
  database = undefined;
});
afterAll(() => new Promise<void>((resolve) => smtp.close(() => resolve())));

/** A server process whose callback runner polls every POLL_MS and mails through the test's SMTP server. */
const runnerProcess = (db: ScratchDatabase) =>
  startServerProcess(db, {
    CALLBACK_RUNNER_POLL_MS: String(POLL_MS),
    SMTP_HOST: '127.0.0.1',
    SMTP_PORT: String(smtpPort),
    SMTP_FROM: 'Dispatch <callbacks@crewplan.test>',
  });

const offersTo = (address: string) => mails.filter((m) => m.to === address && m.subject.startsWith('Callback offer'));
const mailsTo = (address: string) => mails.filter((m) => m.to === address);
const tokenIn = (mail: Mail) => /\/offers\/(cpo_[A-Za-z0-9_-]+)/.exec(mail.text)![1]!;

/** Answers an offer by its link, as the person's browser would, through the given process. */
async function answer(url: string, mail: Mail, value: 'accept' | 'decline'): Promise<void> {
  const response = await fetch(`${url}/offers/${tokenIn(mail)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: `answer=${value}`,
  });
  expect(response.status, await response.text()).toBe(200);
}

/** An organization with an admin, `count` crew members on a list with a 30-minute window, and an open callback. */
async function callbackWith(
  api: Client,
  prefix: string,
  count: number,
  list: Record<string, unknown>,
): Promise<{ id: number; crew: string[]; admin: string }> {
  const person = async (name: string) => {
    const created = await api('PUT', '/users', {
      username: name,
      first_name: name,
      last_name: 'Crew',
      mail: `${name}@crewplan.test`,
      password: 'secret-password',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body.user_id as number;
  };
  const adminId = await person(`${prefix}_admin`);
  const created = await api('POST', '/lists', { name: `${prefix} list`, contact_window_minutes: 30, ...list });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const crew: string[] = [];
  for (let i = 1; i <= count; i += 1) {
    const name = `${prefix}_${i}`;
    expect((await api('PUT', `/users/${await person(name)}/titles`, { ids: [created.body.id] })).status).toBe(200);
    crew.push(`${name}@crewplan.test`);
  }
  const assignment = await api('POST', '/assignments', {
    name: `${prefix} engine`,
    start: '2032-06-01 07:00:00',
    end: '2032-06-02 07:00:00',
    positions_to_fill: 1,
  });
  expect(assignment.status, JSON.stringify(assignment.body)).toBe(201);
  const callback = await api('POST', '/callbacks', {
    list_id: created.body.id,
    initiated_by: adminId,
    assignment_id: assignment.body.id ?? assignment.body.assignment?.id,
    start: '2032-06-10 07:00:00',
    end: '2032-06-11 07:00:00',
    positions_to_fill: 1,
    deadline: '2035-01-01T00:00:00+00:00',
    // list position order, whoever was contacted before
    ordering: 'seniority',
  });
  expect(callback.status, JSON.stringify(callback.body)).toBe(201);
  return { id: callback.body.id, crew, admin: `${prefix}_admin@crewplan.test` };
}

const callbackUsers = async (api: Client, id: number) =>
  (await api('GET', `/callbacks/${id}/users`)).body as Array<Record<string, string | null>>;

/** The organization's log entries saying the callback was offered to someone (the runner writes one per contact). */
async function offersLogged(api: Client, id: number): Promise<number> {
  const log = await api('GET', '/logs?limit=200');
  expect(log.status).toBe(200);
  const rows = log.body.data as Array<{ event_description: string }>;
  return rows.filter((r) => r.event_description.includes(` offered callback #${id} (`)).length;
}

describe('the callback runner in two server processes on one database', () => {
  it('contacts each candidate exactly once while both run it against one callback', async () => {
    database = await scratchDatabase();
    const db = database;
    const processes: ServerProcess[] = await Promise.all([runnerProcess(db), runnerProcess(db)]);
    const credential = await createOrgWithCli(db);
    const [a, b] = await Promise.all(processes.map(async ({ url }) => client(url, await accessToken(url, credential))));
    const { id, crew, admin } = await callbackWith(a!, 'pair', 6, { contact_at_once: 2 });

    // everyone but the last declines by link, through either process; the last accepts
    for (const [i, address] of crew.entries()) {
      await vi.waitFor(() => expect(offersTo(address)).toHaveLength(1), { timeout: 30_000, interval: 20 });
      await answer(processes[i % 2]!.url, offersTo(address)[0]!, i === crew.length - 1 ? 'accept' : 'decline');
    }
    await vi.waitFor(() => expect(mailsTo(admin)).toHaveLength(1), { timeout: 30_000, interval: 20 });
    await vi.waitFor(() => expect(mailsTo(crew.at(-1)!)).toHaveLength(2), { timeout: 30_000, interval: 20 });
    await new Promise((resolve) => setTimeout(resolve, QUIET_MS));

    expect(crew.map((address) => offersTo(address).length)).toEqual([1, 1, 1, 1, 1, 1]);
    expect(mailsTo(crew.at(-1)!).map((m) => m.subject)).toEqual([
      'Callback offer: 2032-06-10 07:00:00 to 2032-06-11 07:00:00',
      'Confirmed: callback 2032-06-10 07:00:00 to 2032-06-11 07:00:00',
    ]);
    expect(mailsTo(admin).map((m) => m.subject)).toEqual([`Callback #${id} filled: 1 of 1`]);
    expect(await offersLogged(b!, id)).toBe(6);
    const users = await callbackUsers(b!, id);
    expect(users.map((u) => u.status)).toEqual(['denied', 'denied', 'denied', 'denied', 'denied', 'accepted']);
    expect(users.every((u) => u.contact_method === 'Email' && u.contact_time !== null)).toBe(true);
    expect((await b!('GET', `/callbacks/${id}`)).body.status).toBe('filled');
  }, 420_000);

  it('a process killed mid-callback and another started in its place resume without contacting again', async () => {
    database = await scratchDatabase();
    const db = database;
    const [first, second] = await Promise.all([runnerProcess(db), runnerProcess(db)]);
    const credential = await createOrgWithCli(db);
    const api = client(first.url, await accessToken(first.url, credential));
    const { id, crew, admin } = await callbackWith(api, 'again', 3, { contact_at_once: 1 });
    await vi.waitFor(() => expect(offersTo(crew[0]!)).toHaveLength(1), { timeout: 30_000, interval: 20 });

    // one process crashes, the other stops: nobody runs the callback, the first offer's window is open
    await Promise.all([stop(first.child, 'SIGKILL'), stop(second.child)]);
    const third = await runnerProcess(db);
    const later = client(third.url, await accessToken(third.url, credential));
    await new Promise((resolve) => setTimeout(resolve, QUIET_MS));
    expect(crew.map((address) => offersTo(address).length)).toEqual([1, 0, 0]);
    expect((await callbackUsers(later, id)).map((u) => [u.status, u.contact_time !== null])).toEqual([
      ['pending', true],
      ['pending', false],
      ['pending', false],
    ]);

    // the answer reaches the new process, which moves on to the next person: a crashed holder's
    // lease on the callback (2 minutes) may have to run out first
    await answer(third.url, offersTo(crew[0]!)[0]!, 'decline');
    await vi.waitFor(() => expect(offersTo(crew[1]!)).toHaveLength(1), { timeout: 150_000, interval: 50 });
    await answer(third.url, offersTo(crew[1]!)[0]!, 'accept');
    await vi.waitFor(() => expect(mailsTo(admin)).toHaveLength(1), { timeout: 30_000, interval: 20 });
    await new Promise((resolve) => setTimeout(resolve, QUIET_MS));

    expect(crew.map((address) => offersTo(address).length)).toEqual([1, 1, 0]);
    expect(mailsTo(admin).map((m) => m.subject)).toEqual([`Callback #${id} filled: 1 of 1`]);
    expect(await offersLogged(later, id)).toBe(2);
    expect((await callbackUsers(later, id)).map((u) => u.status)).toEqual(['denied', 'accepted', 'pending']);
  }, 540_000);
});
