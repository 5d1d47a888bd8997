import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestOrg, type TestServer } from '../../../test/helpers/server.js';
import { createAssignment, workTypeId } from '../rotations/test-fixtures.js';
import { createShift } from '../shifts/test-fixtures.js';
import { createCallbackRunner, type CallbackRunner } from '../callbacks/runner/runner.js';

/**
 * Decision records (docs/workflows.md): the skips decisions.test.ts does not make. Hal is skipped by
 * a fatigue rule, and the rule is in the record's rules snapshot; Ivy is in her do-not-disturb hours
 * when the runner passes; Jon's last forced date is among his inputs.
 */
const DATE = '2032-07-14';
const START = `${DATE} 07:00:00`;
const END = `${DATE} 19:00:00`;
let server: TestServer;
let org: TestOrg;
let adminId: number;
let callbackId: number;
let people: Record<'hal' | 'ivy' | 'jon', number>;
const runners: CallbackRunner[] = [];

/** HH:MM `hours` from `now` on the organization's clock. */
const clock = (now: Date, hours: number) =>
  new Intl.DateTimeFormat('en-GB', {
    timeZone: org.timezone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(new Date(now.getTime() + hours * 3_600_000));

type Line = { user: { id: number }; verdict: string; reason_code: string | null; reason: string | null; inputs: any };
type Decision = { kind: string; rules: any; lines: Line[] };

async function decisions(): Promise<Decision[]> {
  const response = await org.get(`/callbacks/${callbackId}/decisions`);
  expect(response.status, response.text).toBe(200);
  return response.body.decisions;
}

beforeAll(async () => {
  server = await startServer();
  org = await server.newOrg({ name: 'Station Skips' });
  adminId = await org.createUser({ first_name: 'Dana', last_name: 'Chief', role: 'Admin' });
  const window = { start: '2032-07-01 07:00:00', end: '2032-07-01 19:00:00' };
  const engine = await createAssignment(org, { name: 'Engine 3', ...window });
  const station = await createAssignment(org, { name: 'Station 5', ...window });
  const person = (first: string) => org.createUser({ first_name: first, last_name: 'Crew', mail: `${first}@ff.test` });
  people = { hal: await person('Hal'), ivy: await person('Ivy'), jon: await person('Jon') };
  // Hal works the 24 hours before the seat: 36 in a row with it, over the department's 24
  await createShift(org, station, people.hal, '2032-07-13 07:00:00', START, { work_type_id: await workTypeId(org) });
  const rules = await org.patch('/fatigue_rules', { max_consecutive_hours: 24 });
  expect(rules.status, rules.text).toBe(200);
  // Jon was last forced on a group's forced list (paper records)
  const group = await org.post('/groups', { name: 'Platoon B' });
  expect(group.status, group.text).toBe(201);
  expect((await org.put(`/users/${people.jon}/groups`, { ids: [group.body.id] })).status).toBe(200);
  const forced = await org.put(`/groups/${group.body.id}/forced_list`, {
    enabled: false,
    start_within_hours: 12,
    time_off_buffer_hours: 0,
    long_tour_hours: 0,
    long_tour_buffer_hours: 0,
    initiated_by: adminId,
    assignment_ids: [engine],
    last_forced: [{ user_id: people.jon, last_forced: '2032-06-02 07:00:00' }],
  });
  expect(forced.status, forced.text).toBe(200);
  const list = await org.post('/lists', { name: 'Overtime', contact_window_minutes: 30, contact_at_once: 3 });
  expect(list.status, list.text).toBe(201);
  for (const id of Object.values(people))
    expect((await org.put(`/users/${id}/titles`, { ids: [list.body.id] })).status).toBe(200);
  const started = await org.post('/callbacks', {
    list_id: list.body.id,
    initiated_by: adminId,
    assignment_id: engine,
    start: START,
    end: END,
    positions_to_fill: 1,
    deadline: '2035-01-01T00:00:00+00:00',
  });
  expect(started.status, started.text).toBe(201);
  callbackId = started.body.id;
});
afterAll(async () => {
  for (const runner of runners) await runner.stop();
  await server.close();
});

describe('decision records: the other skips', () => {
  it('a fatigue rule: the reason code and words, and the rule in the rules snapshot', async () => {
    const start = (await decisions()).find((d) => d.kind === 'start')!;
    const hal = start.lines.find((l) => l.user.id === people.hal)!;
    expect(hal).toMatchObject({ verdict: 'skipped', reason_code: 'fatigue' });
    expect(hal.reason).toMatch(/24/);
    expect(start.rules.organization.fatigue_rules).toMatchObject({ max_consecutive_hours: 24 });
  });

  it("a member's last forced date among the ordering inputs", async () => {
    const start = (await decisions()).find((d) => d.kind === 'start')!;
    const line = (id: number) => start.lines.find((l) => l.user.id === id)!;
    expect(line(people.jon).inputs.last_forced).toBe('2032-06-02 07:00:00');
    expect(line(people.ivy).inputs.last_forced).toBeNull();
  });

  it('do not disturb: the runner passes over Ivy and records why', async () => {
    const now = new Date();
    const settings = await org.put(`/users/${people.ivy}/callback_settings`, {
      do_not_disturb_start: clock(now, -1),
      do_not_disturb_end: clock(now, 1),
    });
    expect(settings.status, settings.text).toBe(200);
    const runner = createCallbackRunner(server.app, { baseUrl: server.url });
    runners.push(runner);
    await runner.runOnce(now.toISOString());
    const pass = (await decisions()).find((d) => d.kind === 'pass')!;
    expect(pass.lines.find((l) => l.user.id === people.ivy)).toMatchObject({
      verdict: 'do_not_disturb',
      reason_code: 'do_not_disturb',
      reason: `do not disturb ${clock(now, -1)} to ${clock(now, 1)}`,
    });
    expect(pass.lines.find((l) => l.user.id === people.jon)).toMatchObject({ verdict: 'offered' });
    // the replay still finds the stored order
    const replay = await org.get(`/callbacks/${callbackId}/replay`);
    expect(replay.body, replay.text).toMatchObject({ identical: true, differences: [] });
  });
});
