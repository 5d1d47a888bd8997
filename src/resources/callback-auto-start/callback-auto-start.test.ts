import { beforeAll, describe, expect, it } from 'vitest';
import type { TestOrg } from '../../../test/helpers/server.js';
import { Temporal } from '../../core/time.js';
import { createAssignment } from '../rotations/test-fixtures.js';
import { listOf, logText, runnerSuite } from '../callbacks/test-fixtures.js';

const suite = runnerSuite();
const runner = () => suite.runner();

describe('auto-start', () => {
  let org: TestOrg;
  let adminId: number;
  let stationId: number;
  let listId: number;

  beforeAll(async () => {
    org = await suite.server.newOrg({ name: 'Station Auto' });
    adminId = await org.createUser({ first_name: 'Chief', last_name: 'Auto' });
    const today = Temporal.Now.plainDateISO(org.timezone);
    stationId = await createAssignment(org, {
      name: 'Ladder 2',
      start: `${today.subtract({ days: 3 })} 07:00:00`,
      end: `${today.subtract({ days: 2 })} 07:00:00`,
      positions_to_fill: 2,
    });
    await createAssignment(org, {
      name: 'Without a list',
      start: `${today.subtract({ days: 3 })} 07:00:00`,
      end: `${today.subtract({ days: 2 })} 07:00:00`,
    });
    const members = [
      await org.createUser({ first_name: 'Auto', last_name: 'One' }),
      await org.createUser({ first_name: 'Auto', last_name: 'Two' }),
    ];
    listId = await listOf(org, 'Ladder list', members);
  });

  it('GET and PUT /callback_auto_start: checked and replaced whole', async () => {
    expect((await org.get('/callback_auto_start')).body).toEqual({
      enabled: false,
      within_days: 7,
      initiated_by: null,
      lists: [],
    });
    const bad = await org.put('/callback_auto_start', {
      enabled: true,
      within_days: 3,
      initiated_by: adminId,
      lists: [
        { assignment_id: stationId, list_id: 999999 },
        { assignment_id: stationId, list_id: listId },
      ],
    });
    expect(bad.status).toBe(422);
    expect(bad.body.error_message).toEqual([
      'The lists name an assignment more than once.',
      'The lists list ids 999999 do not exist.',
    ]);
    expect((await org.get('/callback_auto_start')).body.enabled).toBe(false);
  });

  it('starts exactly one callback per vacancy within N days, with two runners at once', async () => {
    const saved = await org.put('/callback_auto_start', {
      enabled: true,
      within_days: 3,
      initiated_by: adminId,
      lists: [{ assignment_id: stationId, list_id: listId }],
    });
    expect(saved).toAnswer(200, {
      enabled: true,
      within_days: 3,
      initiated_by: adminId,
      lists: [{ assignment_id: stationId, list_id: listId }],
    });

    const clock = new Date().toISOString();
    const now = Temporal.Instant.from(clock).toZonedDateTimeISO(org.timezone).toPlainDateTime();
    const local = (t: Temporal.PlainDateTime) => t.toString().replace('T', ' ').slice(0, 19);
    const vacancies = await org.get('/vacancies', {
      query: { start: local(now), end: local(now.add({ days: 3 })), assignment_ids: String(stationId) },
    });
    expect(vacancies.status, vacancies.text).toBe(200);
    const expected = (vacancies.body as Array<{ assignment: { id: number }; date: string; start: string }>)
      .filter((v) => v.assignment.id === stationId && v.start > local(now))
      .map((v) => v.date)
      .sort();
    expect(expected.length).toBeGreaterThanOrEqual(2);

    const [a, b] = [runner(), runner()];
    await Promise.all([a.runOnce(clock), b.runOnce(clock), a.runOnce(clock), b.runOnce(clock)]);
    await Promise.all([a.runOnce(clock), b.runOnce(clock)]);

    const callbacks = (await org.get('/callbacks')).body.data as Array<Record<string, any>>;
    expect(callbacks.map((c) => c.start.slice(0, 10)).sort()).toEqual(expected);
    for (const callback of callbacks) {
      expect(callback).toMatchObject({ status: 'active', positions_to_fill: 2 });
      const users = (await org.get(`/callbacks/${callback.id}/users`)).body as Array<Record<string, string | null>>;
      // each started callback offers its first candidate at once
      expect(users.map((u) => u.contact_time !== null)).toEqual([true, false]);
    }
    expect(await logText(org)).toContain('started callback #');
  });
});
