import type { TestOrg } from '../../../test/helpers/server.js';
import { postTimeOff } from '../time-offs/test-fixtures.js';

/** Test setup over HTTP shared by the rotation, shift, schedule and payroll suites. */

export async function createAssignment(org: TestOrg, overrides: Record<string, unknown> = {}): Promise<number> {
  const response = await org.post('/assignments', {
    name: 'Station 1',
    start: '2027-01-01 07:00:00',
    end: '2027-01-02 07:00:00',
    positions_to_fill: 1,
    rrule: 'FREQ=DAILY',
    ...overrides,
  });
  if (response.status !== 201) throw new Error(`assignment creation failed: ${response.text}`);
  return (response.body.id ?? response.body.assignment?.id) as number;
}

export async function createRotation(org: TestOrg, body: Record<string, unknown> = {}): Promise<number> {
  const response = await org.post('/rotations', { name: '24/48', anchor_date: '2027-01-01', preset: '24/48', ...body });
  if (response.status !== 201) throw new Error(`rotation creation failed: ${response.text}`);
  return response.body.id as number;
}

export async function placeOnRotation(org: TestOrg, body: Record<string, unknown>): Promise<number> {
  const response = await org.post('/recurring_shifts', { start_date: '2027-01-01', ...body });
  if (response.status !== 201) throw new Error(`recurring shift creation failed: ${response.text}`);
  return response.body.id as number;
}

/** Each user on its crew of the rotation: one recurring shift each, with the rest of `body`. */
export async function placeCrews(
  org: TestOrg,
  crews: ReadonlyArray<readonly [number, string]>,
  body: Record<string, unknown>,
): Promise<void> {
  for (const [user, crew] of crews) await placeOnRotation(org, { user_id: user, crew, ...body });
}

export async function workTypeId(org: TestOrg, label = 'Regular Time'): Promise<number> {
  const response = await org.get('/work_types');
  const found = (response.body as Array<{ id: number; label: string }>).find((t) => t.label === label);
  if (!found) throw new Error(`no work type ${label}: ${response.text}`);
  return found.id;
}

export async function approvedTimeOff(
  org: TestOrg,
  userId: number,
  adminId: number,
  start: string,
  end: string,
): Promise<number> {
  const type = await org.post('/time_off_types', {
    label: `Vacation ${Math.random().toString(36).slice(2, 6)}`,
    work_code: 'VAC',
    primary_color: '#3f5647',
    secondary_color: '#FFFFFF',
  });
  if (type.status !== 201 && type.status !== 200) throw new Error(`time off type creation failed: ${type.text}`);
  const typeId = (type.body.id ?? type.body.time_off_type?.id) as number;
  const response = await postTimeOff(org, { userId, adminId, typeId, start, end, status: 1 });
  if (response.status !== 201 && response.status !== 200) throw new Error(`time off creation failed: ${response.text}`);
  return (response.body.id ?? response.body.items?.[0]?.id) as number;
}

export async function createLabel(
  org: TestOrg,
  label: string,
  color = '#CCCCCC',
  textColor = '#333333',
): Promise<number> {
  const response = await org.post('/labels', { label, color, text_color: textColor });
  if (response.status !== 201) throw new Error(`label creation failed: ${response.text}`);
  return response.body.id as number;
}

export async function createQualifier(org: TestOrg, name: string, shortcode: string): Promise<number> {
  const response = await org.post('/qualifiers', { name, shortcode });
  if (response.status !== 201) throw new Error(`qualifier creation failed: ${response.text}`);
  return Number(response.headers.get('location')!.split('/').pop());
}

export async function putUserInGroup(org: TestOrg, userId: number, name: string): Promise<number> {
  const group = await org.post('/groups', { name });
  if (group.status !== 201) throw new Error(`group creation failed: ${group.text}`);
  const response = await org.put(`/users/${userId}/groups`, { ids: [group.body.id] });
  if (response.status !== 200) throw new Error(`group membership failed: ${response.text}`);
  return group.body.id as number;
}
