import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoOrganization } from '../../src/cli/seed.js';
import { todayIn } from '../../src/core/time.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { cli, tokenFor } from './helpers.js';

/**
 * `import api` reads the demo organization of one crewplan server through its public API and
 * writes it into the database of a second one: what the API showed of the source, the copy shows.
 */
const TZ = 'America/Chicago';
let source: TestServer;
let target: TestServer;
let sourceApi: (path: string) => Promise<any>;
let credentials: { client_id: string; client_secret: string };
const month = todayIn(TZ).with({ day: 1 });
const from = month.toString();
const to = month.add({ months: 2 }).subtract({ days: 1 }).toString();

function reader(server: TestServer, token: string) {
  return async (path: string) => {
    const response = await server.request('GET', path, { token });
    expect(response.status, `${path}: ${response.text.slice(0, 200)}`).toBe(200);
    return response.body;
  };
}

/** What both servers must agree on, without ids: users with qualifiers, groups and banks; shifts; time off. */
async function view(get: (path: string) => Promise<any>) {
  const users = await get('/users');
  const nameOf = new Map<number, string>(users.map((u: any) => [u.user_id, u.username]));
  const people = [];
  for (const { user_id: id, accrual_profile: _p, accrual_track: _t, user_id: _id, ...user } of users) {
    people.push({
      ...user,
      qualifiers: (await get(`/users/${id}/qualifiers`)).map((q: any) => [q.name, q.ranking]),
      groups: (await get(`/users/${id}/groups`)).map((g: any) => g.name).sort(),
      bank: (await get(`/users/${id}/timeoff/accrual/bank`))
        .filter((b: any) => b.hours)
        .map((b: any) => [b.time_off_type.name, b.hours])
        .sort(),
    });
  }
  const shifts = [];
  for (const start of [month, month.add({ months: 1 })]) {
    const period = await get(`/schedule?start=${start} 00:00:00&end=${start.add({ months: 1 })} 00:00:00`);
    for (const day of period.days) {
      for (const assignment of day.assignments) {
        for (const s of assignment.shifts)
          shifts.push(
            [assignment.name, s.user.name, s.start, s.end, s.work_type.name, s.break_start, s.break_end].join('|'),
          );
      }
    }
  }
  const timeOffs = (await get(`/time_offs?start=${from} 00:00:00&end=${to} 23:59:59&limit=1000`)).items.map((t: any) =>
    [nameOf.get(t.user.id), t.time_off_type.name, t.start, t.end, t.status, t.admin?.name ?? null].join('|'),
  );
  return {
    people: people.sort((a, b) => a.username.localeCompare(b.username)),
    shifts: [...new Set(shifts)].sort(),
    timeOffs: timeOffs.sort(),
  };
}

beforeAll(async () => {
  source = await startServer({ databaseUrl: undefined });
  target = await startServer();
  credentials = await seedDemoOrganization(source.app.db, source.config.secretKey, TZ);
  sourceApi = reader(source, await tokenFor(source, credentials.client_id, credentials.client_secret));
}, 120_000);
afterAll(async () => {
  await source?.close();
  await target?.close();
});

describe('import api', () => {
  it('copies what the public API shows into a new organization and reports what it cannot carry', async () => {
    const args = [
      'import',
      'api',
      '--base-url',
      source.url,
      '--client-id',
      credentials.client_id,
      '--client-secret',
      credentials.client_secret,
      '--from',
      from,
      '--to',
      to,
      '--json',
    ];
    const result = JSON.parse((await cli(target, args)).stdout);
    expect(result).toMatchObject({
      organization_id: expect.any(Number),
      client_id: expect.any(String),
      client_secret: expect.any(String),
    });
    expect(result.counts).toMatchObject({
      user_account: 48,
      shift: expect.any(Number),
      time_off: expect.any(Number),
      accrual_transaction: expect.any(Number),
    });
    expect(result.not_carried[0]).toMatch(
      new RegExp(
        `^rotation patterns: .* [1-9]\\d* recurring shift occurrences from ${from} to ${to} were written as one-off shifts`,
      ),
    );

    const copy = reader(target, await tokenFor(target, result.client_id, result.client_secret));
    const expected = await view(sourceApi);
    expect(expected.shifts.length).toBeGreaterThan(100);
    expect(expected.timeOffs.length).toBeGreaterThan(0);
    expect(await view(copy)).toEqual(expected);
    expect((await copy('/company')).name).toBe('Demo Fire Department');
  }, 180_000);

  it('names a refused credential', async () => {
    const args = [
      'import',
      'api',
      '--base-url',
      source.url,
      '--client-id',
      credentials.client_id,
      '--client-secret',
      'wrong-secret',
    ];
    await expect(cli(target, args)).rejects.toMatchObject({
      stderr: expect.stringMatching(/refused the credentials: HTTP 401/),
    });
  }, 60_000);
});
