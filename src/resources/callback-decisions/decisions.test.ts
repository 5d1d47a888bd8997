import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestOrg, type TestServer } from '../../../test/helpers/server.js';
import { createAssignment, createQualifier, workTypeId } from '../rotations/test-fixtures.js';
import { createShift } from '../shifts/test-fixtures.js';
import { createCallbackRunner, type CallbackRunner } from '../callbacks/runner/runner.js';
import { at } from '../callbacks/test-fixtures.js';
import { CLI_ENTRY } from '../../../test/helpers/entries.js';
import { createTimeOff } from '../time-offs/test-fixtures.js';

/**
 * Decision records, a member's own lines and replay (docs/workflows.md): three callbacks on one
 * list (rotating, hours, seniority) for an Engine seat short of a paramedic, with one member
 * skipped for each reason (working, on leave, lacks the qualifier, over the weekly limit) and,
 * on the runner's second pass, the person offered first listed as already offered.
 */
const DATE = '2032-06-10'; // a Thursday
const START = `${DATE} 07:00:00`;
const END = `${DATE} 19:00:00`;
let server: TestServer;
let org: TestOrg;
let adminId: number;
let engine: number;
let listId: number;
let people: Record<'ann' | 'ben' | 'cal' | 'dee' | 'eve' | 'fay' | 'gus', number>;
let earlierId: number;
const callbacks: Record<string, number> = {};
const runners: CallbackRunner[] = [];
const dataDir = mkdtempSync(join(tmpdir(), 'crewplan-replay-'));

async function shift(userId: number, assignmentId: number, start: string, end: string) {
  await createShift(org, assignmentId, userId, start, end, { work_type_id: await workTypeId(org) });
}

async function startCallback(ordering: string, overrides: Record<string, unknown> = {}) {
  const response = await org.post('/callbacks', {
    list_id: listId,
    initiated_by: adminId,
    assignment_id: engine,
    start: START,
    end: END,
    positions_to_fill: 1,
    deadline: '2035-01-01T00:00:00+00:00',
    ordering,
    ...overrides,
  });
  expect(response.status, response.text).toBe(201);
  return response.body.id as number;
}

beforeAll(async () => {
  server = await startServer();
  org = await server.newOrg({ name: 'Station Decisions' });
  adminId = await org.createUser({ first_name: 'Dana', last_name: 'Chief', role: 'Admin' });
  const pm = await createQualifier(org, 'Paramedic', 'PM');
  const window = { start: '2032-06-01 07:00:00', end: '2032-06-01 19:00:00' };
  engine = await createAssignment(org, { name: 'Engine 1', ...window });
  expect(
    (await org.patch(`/assignments/${engine}`, { qualifiers_needed: [{ id: pm, minimum_staffing: 1 }] })).status,
  ).toBe(200);
  const station = await createAssignment(org, { name: 'Station 2', ...window });
  const person = (first: string, hire: string, role = 'Firefighter') =>
    org.createUser({ first_name: first, last_name: 'Crew', date_of_hire: hire, role });
  people = {
    ann: await person('Ann', '2001-01-01'),
    ben: await person('Ben', '2002-01-01'),
    cal: await person('Cal', '2003-01-01'),
    dee: await person('Dee', '2004-01-01'),
    eve: await person('Eve', '2010-01-01'),
    fay: await person('Fay', '2005-01-01'),
    gus: await person('Gus', '2015-01-01'),
  };
  for (const [name, id] of Object.entries(people))
    if (name !== 'cal') expect((await org.post(`/users/${id}/qualifiers`, { id: pm })).status).toBe(201);
  // the seat is taken by someone without PM: the vacancy is short of a paramedic
  const basic = await org.createUser({ first_name: 'Basic', last_name: 'Fill' });
  await shift(basic, engine, START, END);
  await shift(people.ann, station, START, END);
  await shift(people.dee, station, `${DATE.slice(0, 8)}09 19:00:00`, START);
  const sick = (await org.post('/time_off_types', { label: 'Sick', work_code: 'SL' })).body.id;
  await createTimeOff(org, {
    userId: people.ben,
    adminId,
    start: START,
    end: END,
    typeId: sick,
    status: 1,
  });
  const list = await org.post('/lists', { name: 'Overtime', weekly_limit: 20, contact_window_minutes: 30 });
  expect(list.status, list.text).toBe(201);
  listId = list.body.id;
  for (const id of Object.values(people))
    expect((await org.put(`/users/${id}/titles`, { ids: [listId] })).status).toBe(200);
  // Eve accepted 12 hours from the list three weeks before: hours and rotating put her last
  const earlier = await org.post('/callbacks', {
    list_id: listId,
    initiated_by: adminId,
    start: '2032-05-20 07:00:00',
    end: '2032-05-20 19:00:00',
    positions_to_fill: 1,
    deadline: '2032-05-20T00:00:00+00:00',
  });
  expect(earlier.status, earlier.text).toBe(201);
  earlierId = earlier.body.id;
  const accepted = await org.post(`/callbacks/${earlierId}/users`, { user_id: people.eve, status: 'accepted' });
  expect(accepted.status, accepted.text).toBe(200);
  for (const ordering of ['rotating', 'hours', 'seniority']) callbacks[ordering] = await startCallback(ordering);
});
afterAll(async () => {
  for (const runner of runners) await runner.stop();
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
});

type Line = { user: { id: number }; verdict: string; position: number | null; reason_code: string | null };
type Record_ = { kind: string; ordering: string | null; rules_hash: string | null; rules: any; lines: Line[] };

async function decisionsOf(id: number) {
  const response = await org.get(`/callbacks/${id}/decisions`);
  expect(response.status, response.text).toBe(200);
  return response.body as { decisions: Record_[]; contacts: Array<Record<string, unknown>> };
}

const verdicts = (record: Record_) =>
  Object.fromEntries(record.lines.map((l) => [l.user.id, [l.verdict, l.position ?? l.reason_code]]));

describe('decision records', () => {
  it('the start of each ordering: every member with a verdict, the reason code and the inputs', async () => {
    const skipped = {
      [people.ann]: ['skipped', 'working'],
      [people.ben]: ['skipped', 'time_off'],
      [people.cal]: ['skipped', 'lacks'],
      [people.dee]: ['skipped', 'limit'],
    };
    const expected: Record<string, number[]> = {
      rotating: [people.fay, people.gus, people.eve],
      hours: [people.fay, people.gus, people.eve],
      seniority: [people.fay, people.eve, people.gus],
    };
    for (const [ordering, order] of Object.entries(expected)) {
      const { decisions } = await decisionsOf(callbacks[ordering]!);
      const start = decisions.find((d) => d.kind === 'start')!;
      expect(start.ordering).toBe(ordering);
      expect(start.rules_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(start.rules.list).toMatchObject({ id: listId, weekly_limit: 20, contact_window_minutes: 30 });
      expect(verdicts(start)).toEqual({
        ...skipped,
        ...Object.fromEntries(order.map((id, i) => [id, ['candidate', i + 1]])),
      });
    }
    const { decisions } = await decisionsOf(callbacks.hours!);
    const lines = decisions.find((d) => d.kind === 'start')!.lines as Array<Line & { reason: string; inputs: any }>;
    const line = (id: number) => lines.find((l) => l.user.id === id)!;
    expect(line(people.eve).inputs).toMatchObject({ hours_charged: 12, date_of_hire: '2010-01-01' });
    expect(line(people.eve).inputs.last_accepted).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(line(people.fay).inputs).toMatchObject({ hours_charged: 0, last_offered: null, list_position: 6 });
    expect(line(people.ben).reason).toBe(`on approved Sick ${DATE} 07:00–19:00`);
    expect(line(people.cal).reason).toBe('lacks PM');
    expect(line(people.dee).reason).toMatch(/^over the list's weekly limit: 24 of 20 h$/);
    expect(line(people.ann).reason).toMatch(/^already working .* on Station 2$/);
  });

  it('runner passes: the offer, the contact, no answer, and the person offered before as already offered', async () => {
    const runner = createCallbackRunner(server.app, { baseUrl: server.url });
    runners.push(runner);
    // contact times are kept to the second: the offers come a second after the starts (replay)
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const now = new Date().toISOString();
    await runner.runOnce(now);
    await runner.runOnce(at(now, 31));
    const { decisions, contacts } = await decisionsOf(callbacks.rotating!);
    const passes = decisions.filter((d) => d.kind === 'pass');
    expect(passes.map(verdicts)).toEqual([
      { [people.fay]: ['offered', 1] },
      { [people.fay]: ['no_answer', 1], [people.gus]: ['offered', 2] },
    ]);
    expect(passes[1]!.lines.map((l) => l.verdict)).toEqual(['already_offered', 'no_answer', 'offered']);
    expect(decisions.map((d) => d.kind)).toEqual(['start', 'pass', 'pass']);
    // no mail server: the e-mail channel could not reach them, recorded per offer
    expect(new Set(contacts.map((c) => `${(c.user as { id: number }).id} ${c.purpose} ${c.result}`))).toEqual(
      new Set([`${people.fay} offer unavailable`, `${people.gus} offer unavailable`]),
    );
    expect(contacts.find((c) => c.channel === 'Email')).toMatchObject({
      detail: expect.stringMatching(/^e-mail is off/),
    });
    const answer = await org.post(`/callbacks/${callbacks.rotating}/users`, { user_id: people.gus, status: 'denied' });
    expect(answer.status, answer.text).toBe(200);
    const after = await decisionsOf(callbacks.rotating!);
    expect(verdicts(after.decisions.at(-1)!)).toEqual({ [people.gus]: ['denied', 2] });
  });
});

/** A member's GET the way the board makes it. */
async function sessionOf(userId: number) {
  const session = await org.signIn(userId);
  return (path: string) => session.get(path);
}

describe("a member's own lines", () => {
  it('Ann reads why she was not called, and nobody else’s lines', async () => {
    const ann = await sessionOf(people.ann);
    const mine = await ann(`/users/${people.ann}/callback_decisions`);
    expect(mine.status, mine.text).toBe(200);
    const lines = mine.body.lines as Array<Record<string, unknown>>;
    expect(lines.filter((l) => l.kind === 'start').map((l) => [l.callback_id, l.verdict, l.reason_code])).toEqual(
      [callbacks.seniority, callbacks.hours, callbacks.rotating, earlierId].map((id) =>
        id === earlierId ? [id, 'candidate', null] : [id, 'skipped', 'working'],
      ),
    );
    expect((await ann(`/users/${people.ben}/callback_decisions`)).status).toBe(403);
    expect((await ann(`/callbacks/${callbacks.rotating}/decisions`)).status).toBe(403);
    expect((await ann(`/callbacks/${callbacks.rotating}/replay`)).status).toBe(403);
    // an admin reads anyone's; a user of another organization is not found
    const bens = await org.get(`/users/${people.ben}/callback_decisions`);
    expect(bens.body.lines[0]).toMatchObject({ verdict: 'skipped', reason_code: 'time_off' });
    const stranger = await (await server.newOrg()).createUser();
    expect((await org.get(`/users/${stranger}/callback_decisions`)).status).toBe(404);
  });
});

/** `npm run cli -- callbacks replay` on the test server's database. */
const cliReplay = (args: string[]) => cli(['callbacks', 'replay', '--org', String(org.orgId), ...args]);
/** `npm run cli -- log verify` on the test server's database. */
const cliVerify = () => cli(['log', 'verify', '--org', String(org.orgId)]);

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = {
    CREWPLAN_DATA_DIR: dataDir,
    CREWPLAN_SECRET_KEY: 'replay-test-key',
    DATABASE_URL: server.config.databaseUrl ?? server.config.sqlitePath,
    ...(server.config.pgSchema ? { DATABASE_SCHEMA: server.config.pgSchema } : {}),
  };
  return promisify(execFile)(process.execPath, [CLI_ENTRY, ...args], { env, timeout: 60_000 }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({
      code: error.code,
      stdout: error.stdout,
      stderr: error.stderr,
    }),
  );
}

/** The CLI runs start a process each (tsx): slow on a busy machine. */
const CLI_TEST = { timeout: 180_000 };

describe('replay', () => {
  it('every callback replays to the order it stored, by the route and the CLI', CLI_TEST, async () => {
    for (const id of [earlierId, ...Object.values(callbacks)]) {
      const replay = await org.get(`/callbacks/${id}/replay`);
      expect(replay.status, replay.text).toBe(200);
      expect(replay.body).toMatchObject({ recorded: true, identical: true, differences: [] });
      expect(replay.body.replayed_order).toEqual(replay.body.stored_order);
      expect(replay.body.current_order).toEqual(replay.body.stored_order);
    }
    const [replayed, verified] = await Promise.all([cliReplay(['--json']), cliVerify()]);
    expect(replayed.code, replayed.stdout).toBe(0);
    expect(JSON.parse(replayed.stdout)).toMatchObject({ identical: true, callbacks: expect.any(Array) });
    expect(JSON.parse(replayed.stdout).callbacks).toHaveLength(4);
    expect(verified.code, verified.stdout).toBe(0);
    expect(verified.stdout).toContain('the decision records of 4 callback(s) match their seals');
  });

  it("reports a person's hours edited in the database, and a stored position edited", CLI_TEST, async () => {
    await server.app.db
      .updateTable('callback_user')
      .set({ end_time: '2032-05-20 13:00:00', start_time: '2032-05-20 07:00:00' })
      .where('callback_id', '=', earlierId)
      .where('user_id', '=', people.eve)
      .execute();
    const replay = await org.get(`/callbacks/${callbacks.hours}/replay`);
    expect(replay.body.identical).toBe(false);
    expect(replay.body.input_changes).toEqual([
      { user_id: people.eve, field: 'hours_charged', stored: 12, current: 6 },
    ]);
    expect(replay.body.differences).toEqual([`user #${people.eve}: hours charged was 12, is 6 now`]);
    // the stored inputs still give the stored order
    expect(replay.body.replayed_order).toEqual(replay.body.stored_order);

    await server.app.db
      .updateTable('callback_decision_line')
      .set({ position: 9 })
      .where('callback_id', '=', callbacks.seniority!)
      .where('user_id', '=', people.fay)
      .where('verdict', '=', 'candidate')
      .execute();
    const edited = await org.get(`/callbacks/${callbacks.seniority}/replay`);
    expect(edited.body.identical).toBe(false);
    expect(edited.body.stored_order).toEqual([people.eve, people.gus, people.fay]);
    expect(edited.body.differences.join('\n')).toContain('the stored inputs order');

    const [cli, one, bad] = await Promise.all([
      cliReplay([]),
      cliReplay(['--callback', String(callbacks.rotating)]),
      cliReplay(['--callback', 'x']),
    ]);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('--callback must be a callback id, got "x"');
    expect(cli.code).toBe(1);
    expect(cli.stdout).toContain(`callback #${callbacks.hours} (hours)`);
    expect(cli.stdout).toContain('hours charged was 12, is 6 now');
    expect(cli.stdout).toContain(
      `callback #${callbacks.rotating} (rotating): #${people.fay}, #${people.gus}, #${people.eve}: identical`,
    );
    expect(cli.stdout).toContain('2 of 4 callback(s) differ');
    expect(one.code, one.stdout).toBe(0);
  });

  it('names the record whose line was edited in the database, by the route and the CLI', CLI_TEST, async () => {
    const before = await org.get(`/callbacks/${callbacks.rotating}/replay`);
    expect(before.body).toMatchObject({ identical: true, differences: [] });
    const { decisions } = await decisionsOf(callbacks.rotating!);
    const pass = (decisions as Array<Record_ & { id: number }>).find((d) => d.kind === 'pass')!;
    // one word of the offer's reason, where the order and every input stay as they were
    const edited = await server.app.db
      .updateTable('callback_decision_line')
      .set({ reason: 'offered by phone' })
      .where('decision_id', '=', pass.id)
      .where('verdict', '=', 'offered')
      .executeTakeFirst();
    expect(Number(edited.numUpdatedRows)).toBe(1);
    const replay = await org.get(`/callbacks/${callbacks.rotating}/replay`);
    expect(replay.body.identical).toBe(false);
    expect(replay.body.differences).toEqual([
      expect.stringMatching(
        new RegExp(
          `^decision record #${pass.id} \\(its head, line #\\d+\\) ` +
            'no longer matches the SHA-256 sealed by log entry #\\d+',
        ),
      ),
    ]);
    expect(replay.body.replayed_order).toEqual(replay.body.stored_order);
    // a contact's result edited is named too
    await server.app.db
      .updateTable('callback_contact')
      .set({ result: 'sent' })
      .where('callback_id', '=', callbacks.rotating!)
      .execute();
    const contacts = await org.get(`/callbacks/${callbacks.rotating}/replay`);
    expect(contacts.body.differences.join('\n')).toMatch(/the contacts \(contact #\d+\) no longer matches/);
    const [replayed, verified] = await Promise.all([
      cliReplay(['--callback', String(callbacks.rotating)]),
      cliVerify(),
    ]);
    expect(replayed.code).toBe(1);
    expect(replayed.stdout).toContain(`decision record #${pass.id} (its head, line #`);
    // the log itself is intact; the record is named
    expect(verified.code).toBe(1);
    expect(verified.stdout).toContain('is intact');
    expect(verified.stdout).toContain(
      `- callback #${callbacks.rotating}: decision record #${pass.id} (its head, line #`,
    );
  });
});
