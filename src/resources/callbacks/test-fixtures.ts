import type { AgentOptions } from 'node:https';
import { afterAll, beforeAll, expect, vi } from 'vitest';
import { startServer, type TestOrg, type TestServer } from '../../../test/helpers/server.js';
import { startMailCatcher } from '../../core/mail-catcher.js';
import { Temporal } from '../../core/time.js';
import { createAssignment, workTypeId } from '../rotations/test-fixtures.js';
import { createCallbackRunner, type CallbackRunner } from './runner/runner.js';

/** Test setup over HTTP shared by the callback runner, SMS, push and auto-accept suites. */

/** The organization a suite starts its callbacks in: who starts them and on which assignment. */
export interface CallbackScene {
  org: TestOrg;
  adminId: number;
  stationId: number;
}

/** A suite's test server and the callback runners its tests start (see {@link runnerSuite}). */
export interface RunnerSuite {
  server: TestServer;
  /** A runner of the server (stopped after the suite), as if the channel `without` names were not configured. */
  runner(without?: 'smtp' | 'push'): CallbackRunner;
  /** Stops `runner` after the suite, with the others; `runner`. */
  track(runner: CallbackRunner): CallbackRunner;
  /** With `mail`: every message the suite's servers sent so far ({@link catchMail}). */
  mails: CaughtMail[];
  /** With `mail`: the messages sent to `address`. */
  mailsTo(address: string): CaughtMail[];
}

/**
 * Starts the suite's server before its tests (`start`, by default a plain test server) and, after them, stops
 * the runners it started, closes the server, then runs `after`. `pushAgent`: how runners reach push services.
 * `mail`: the suite catches the mail its servers send ({@link catchMail}, begun before `start`, closed last).
 */
export function runnerSuite(
  options: {
    start?: () => Promise<TestServer>;
    after?: () => Promise<void>;
    pushAgent?: () => AgentOptions;
    mail?: boolean;
  } = {},
): RunnerSuite {
  const runners: CallbackRunner[] = [];
  let mail: Awaited<ReturnType<typeof catchMail>> | undefined;
  const suite: RunnerSuite = {
    server: undefined as unknown as TestServer,
    mails: [],
    mailsTo: (address) => suite.mails.filter((m) => m.to.includes(address)),
    runner(without) {
      const { db, log, config } = suite.server.app;
      const app =
        without === 'smtp'
          ? { db, log, config: { ...config, smtp: { ...config.smtp, host: undefined } } }
          : without === 'push'
            ? { db, log, config: { ...config, push: { ...config.push, subject: undefined } } }
            : suite.server.app;
      return suite.track(createCallbackRunner(app, { baseUrl: suite.server.url, pushAgent: options.pushAgent?.() }));
    },
    track(runner) {
      runners.push(runner);
      return runner;
    },
  };
  beforeAll(async () => {
    if (options.mail) {
      mail = await catchMail();
      suite.mails = mail.mails;
    }
    suite.server = await (options.start ?? (() => startServer()))();
  });
  afterAll(async () => {
    for (const runner of runners) await runner.stop();
    await suite.server.close();
    await options.after?.();
    await mail?.close();
  });
  return suite;
}

/** A new organization `name` with its chief (`chief`: the user's fields) and a 24-hour assignment from 07:00. */
export async function callbackScene(
  server: TestServer,
  name: string,
  chief: Record<string, unknown>,
  assignment: { name: string; date: string },
): Promise<CallbackScene> {
  const org = await server.newOrg({ name });
  const adminId = await org.createUser(chief);
  const next = Temporal.PlainDate.from(assignment.date).add({ days: 1 }).toString();
  const stationId = await createAssignment(org, {
    name: assignment.name,
    start: `${assignment.date} 07:00:00`,
    end: `${next} 07:00:00`,
  });
  return { org, adminId, stationId };
}

/** `minutes` after the instant `base`: the clock a test hands the runner. */
export const at = (base: string, minutes: number) =>
  Temporal.Instant.from(base).add({ minutes }).toString({ fractionalSecondDigits: 3 });

/** A call list (30 minutes to answer unless `settings` says otherwise) with `members` on it. */
export async function listOf(
  org: TestOrg,
  name: string,
  members: number[],
  settings: Record<string, unknown> = {},
): Promise<number> {
  const list = await org.post('/lists', { name, contact_window_minutes: 30, ...settings });
  expect(list.status, list.text).toBe(201);
  for (const id of members) expect((await org.put(`/users/${id}/titles`, { ids: [list.body.id] })).status).toBe(200);
  return list.body.id as number;
}

/** Starts a callback for the 24 hours from 07:00 on `date`; the created callback's body. */
export async function startCallbackOn(
  { org, adminId, stationId }: CallbackScene,
  listId: number,
  date: string,
  extra: Record<string, unknown> = {},
): Promise<{ id: number; skipped: Array<{ user_id: number; reason: string }> }> {
  const next = Temporal.PlainDate.from(date).add({ days: 1 }).toString();
  const response = await org.post('/callbacks', {
    list_id: listId,
    initiated_by: adminId,
    assignment_id: stationId,
    start: `${date} 07:00:00`,
    end: `${next} 07:00:00`,
    positions_to_fill: 1,
    deadline: '2035-01-01T00:00:00+00:00',
    ...extra,
  });
  expect(response.status, response.text).toBe(201);
  return response.body;
}

/** The callback's people as GET /callbacks/{id}/users lists them. */
export const usersOf = async (org: TestOrg, id: number) =>
  (await org.get(`/callbacks/${id}/users`)).body as Array<Record<string, string | null>>;

/** The organization's last 200 log entries as one text, to look for what a step logged. */
export const logText = async (org: TestOrg) => JSON.stringify((await org.get('/logs', { query: { limit: 200 } })).body);

/** A suite that starts callbacks by hand: its organization, admin, work type and assignment. */
export interface StartingScene extends CallbackScene {
  workTypeId: number;
}

/** The organization's scene: admin John Doe, its first work type and Engine 3 (2032-01-01 08:00 for 24 hours). */
export async function startingScene(org: TestOrg): Promise<StartingScene> {
  const adminId = await org.createUser({ first_name: 'John', last_name: 'Doe' });
  const firstWorkTypeId = await workTypeId(org);
  const stationId = await createAssignment(org, {
    name: 'Engine 3',
    start: '2032-01-01 08:00:00',
    end: '2032-01-02 08:00:00',
  });
  return { org, adminId, workTypeId: firstWorkTypeId, stationId };
}

/**
 * The setup steps of a suite on its scene, read when a step runs (once the suite's beforeAll made it):
 * lists, shifts, crews, callbacks (each of the scene's organization unless `as` says another) and answers.
 */
export function sceneSteps(scene: () => StartingScene) {
  return {
    makeList: (name: string, members: number[], limits: ListLimits = {}, as: TestOrg = scene().org) =>
      listWithMembers(as, name, members, limits),
    giveShift: (userId: number, start: string, end: string, ofType?: number, onAssignment?: number) =>
      shiftFor(scene(), userId, start, end, ofType, onAssignment),
    crew: (count: number, prefix = 'Crew') => crewMembers(scene().org, count, prefix),
    startCallback: (listId: number, overrides: Record<string, unknown> = {}, as: TestOrg = scene().org) =>
      startCallbackFor(scene(), listId, overrides, as),
    respond: (callbackId: number, userId: number, status: string, extra: Record<string, unknown> = {}) =>
      scene().org.post(`/callbacks/${callbackId}/users`, { user_id: userId, status, ...extra }),
  };
}

export interface ListLimits {
  max_consecutive_hours?: number;
  weekly_limit?: number;
  monthly_limit?: number;
  yearly_limit?: number;
  ordering?: 'rotating' | 'hours' | 'seniority';
}

/** A callback list (title) without a contact window, with members in the given order (each joins at the bottom). */
export async function listWithMembers(
  org: TestOrg,
  name: string,
  members: number[],
  limits: ListLimits = {},
): Promise<number> {
  const list = await org.post('/lists', { name, ...limits });
  if (list.status !== 201) throw new Error(`list creation failed: ${list.text}`);
  for (const userId of members) {
    const joined = await org.put(`/users/${userId}/titles`, { ids: [list.body.id] });
    if (joined.status !== 200) throw new Error(`list membership failed: ${joined.text}`);
  }
  return list.body.id as number;
}

/** A one-off shift: work that makes a member ineligible or counts toward the limits. */
export async function shiftFor(
  scene: StartingScene,
  userId: number,
  start: string,
  end: string,
  ofType = scene.workTypeId,
  onAssignment = scene.stationId,
): Promise<void> {
  const response = await scene.org.post('/shifts', {
    assignment_id: onAssignment,
    user_id: userId,
    date: start.slice(0, 10),
    start,
    end,
    work_type_id: ofType,
  });
  if (response.status !== 201) throw new Error(`shift creation failed: ${response.text}`);
}

/** `count` new users named `prefix MemberN`. */
export async function crewMembers(org: TestOrg, count: number, prefix = 'Crew'): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < count; i += 1)
    ids.push(await org.createUser({ first_name: prefix, last_name: `Member${i + 1}` }));
  return ids;
}

/** A callback of 2032-03-10 08:00 to 20:00 for two positions on the list, `overrides` applied. */
export function callbackBodyFor(scene: StartingScene, listId: number, overrides: Record<string, unknown> = {}) {
  return {
    list_id: listId,
    initiated_by: scene.adminId,
    start: '2032-03-10 08:00:00',
    end: '2032-03-10 20:00:00',
    positions_to_fill: 2,
    deadline: '2035-01-01T00:00:00+00:00',
    ...overrides,
  };
}

/** Starts the callback of {@link callbackBodyFor} (as `as`, the scene's organization by default); its body. */
export async function startCallbackFor(
  scene: StartingScene,
  listId: number,
  overrides: Record<string, unknown> = {},
  as: TestOrg = scene.org,
) {
  const response = await as.post('/callbacks', callbackBodyFor(scene, listId, overrides));
  expect(response.status, response.text).toBe(201);
  return response.body as {
    id: number;
    candidates: Array<{ user_id: number; position: number }>;
    skipped: Array<{ user_id: number; reason: string }>;
  };
}

/** A message the local mail catcher received (`mail catch`), with the bare addresses it was sent to. */
export interface CaughtMail {
  to: string[];
  subject: string;
  /** the plain text part, decoded */
  text: string;
  /** the source, quoted-printable soft breaks and `=3D` undone (to read attachments) */
  raw: string;
}

/**
 * The mail catcher (`mail catch`) on loopback, keeping every message in `mails`, with SMTP_HOST,
 * SMTP_PORT and SMTP_FROM stubbed for the servers the suite starts next; `close()` stops it and
 * unstubs them.
 */
export async function catchMail(): Promise<{ mails: CaughtMail[]; close(): Promise<void> }> {
  const mails: CaughtMail[] = [];
  const catcher = await startMailCatcher('127.0.0.1', 0, (mail, { to, source }) => {
    const raw = source
      .toString('utf8')
      .replace(/=\r?\n/g, '')
      .replace(/=3D/g, '=');
    mails.push({ to, subject: mail.subject, text: mail.text, raw });
  });
  vi.stubEnv('SMTP_HOST', '127.0.0.1');
  vi.stubEnv('SMTP_PORT', String(catcher.port));
  vi.stubEnv('SMTP_FROM', 'Dispatch <callbacks@crewplan.test>');
  return {
    mails,
    close: async () => {
      await catcher.close();
      vi.unstubAllEnvs();
    },
  };
}
