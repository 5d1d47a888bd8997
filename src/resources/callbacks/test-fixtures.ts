import { expect } from 'vitest';
import type { TestOrg } from '../../../test/helpers/server.js';
import { Temporal } from '../../core/time.js';

/** Test setup over HTTP shared by the callback runner, SMS, push and auto-accept suites. */

/** The organization a suite starts its callbacks in: who starts them and on which assignment. */
export interface CallbackScene {
  org: TestOrg;
  adminId: number;
  stationId: number;
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
