import { Temporal } from 'temporal-polyfill';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type ApiResponse, type TestOrg, type TestServer } from '../../../test/helpers/server.js';
import { createAssignment, workTypeId } from '../rotations/test-fixtures.js';
import { postTimeOff } from '../time-offs/test-fixtures.js';
import { createShift } from '../shifts/test-fixtures.js';

/**
 * Masked time off types (issue 37, docs/time-off.md#masked-types): sick leave shows as "Off" (or
 * the type's public name) to members other than the person and in calendar feeds; admins, the API
 * credential and the person see the type.
 */
let server: TestServer;
let org: TestOrg;
let adminId: number;
let sickId: number;
let familyId: number;
let vacationId: number;
let ill: number;
let coworker: number;
let stationId: number;

// a day inside the calendar feed's window (today - 30 .. today + 180 days)
const date = Temporal.Now.plainDateISO('UTC').add({ days: 20 }).toString();
const next = Temporal.PlainDate.from(date).add({ days: 1 }).toString();
const day = { start: `${date} 00:00:00`, end: `${next} 00:00:00` };

const user = (overrides: Record<string, unknown>) => org.createUser(overrides);

async function type(body: Record<string, unknown>): Promise<number> {
  const response = await org.post('/time_off_types', body);
  expect(response.status, response.text).toBe(201);
  return response.body.id;
}

async function approved(userId: number, typeId: number, start: string, end: string) {
  const response = await postTimeOff(org, { userId, adminId, typeId, start, end, status: 1 });
  expect(response.status, response.text).toBe(201);
}

beforeAll(async () => {
  server = await startServer();
  org = await server.newOrg();
  adminId = await user({ first_name: 'Dana', last_name: 'Chief', role: 'Admin' });
  ill = await user({ first_name: 'Ira', last_name: 'Ill', role: 'Firefighter' });
  coworker = await user({ first_name: 'Cory', last_name: 'Coworker', role: 'Firefighter' });
  sickId = await type({ label: 'Sick', work_code: 'SL', primary_color: '#2474a9', masked: true });
  familyId = await type({ label: 'Family leave', work_code: 'FL', masked: true, public_name: 'Away' });
  vacationId = await type({ label: 'Vacation', work_code: 'VAC' });
  stationId = await createAssignment(org, { name: 'Engine 2', start: `${date} 07:00:00`, end: `${next} 07:00:00` });
  await createShift(org, stationId, ill, `${date} 07:00:00`, `${date} 19:00:00`, {
    work_type_id: await workTypeId(org),
  });
  await approved(ill, sickId, `${date} 07:00:00`, `${date} 19:00:00`);
  await approved(coworker, familyId, `${date} 08:00:00`, `${date} 12:00:00`);
  await approved(coworker, vacationId, `${date} 13:00:00`, `${date} 17:00:00`);
});
afterAll(() => server.close());

/** A /v1 GET the way the web app makes it: the user's session cookie and the session header. */
async function getAs(userId: number, path: string, query?: Record<string, string>): Promise<ApiResponse> {
  return (await org.signIn(userId)).get(path, { query });
}

interface TypeShown {
  id: number;
  name: string;
  work_code: string | null;
  color: string;
  public_name?: string;
}

/** The day's time off in GET /schedule, by the user's name: `{type name, id, work code, public name}`. */
function timeOffOfDay(response: ApiResponse) {
  expect(response.status, response.text).toBe(200);
  const items = response.body.days[0].time_off as Array<{ user: { id: number }; time_off_type: TypeShown }>;
  return items.map(({ user: { id }, time_off_type: t }) => ({
    user: id,
    id: t.id,
    name: t.name,
    work_code: t.work_code,
    public_name: t.public_name,
  }));
}

describe('masked time off types in GET /schedule', () => {
  it('a coworker (member session) sees sick leave as "Off", family leave as "Away", vacation as it is', async () => {
    expect(timeOffOfDay(await getAs(coworker, '/schedule', day))).toEqual([
      { user: ill, id: 0, name: 'Off', work_code: null, public_name: 'Off' },
      { user: coworker, id: familyId, name: 'Family leave', work_code: 'FL', public_name: 'Away' },
      { user: coworker, id: vacationId, name: 'Vacation', work_code: 'VAC', public_name: undefined },
    ]);
  });

  it('the person sees their own sick leave as "Sick" and the coworker\'s family leave as "Away"', async () => {
    expect(timeOffOfDay(await getAs(ill, '/schedule', day))).toEqual([
      { user: ill, id: sickId, name: 'Sick', work_code: 'SL', public_name: 'Off' },
      { user: coworker, id: 0, name: 'Away', work_code: null, public_name: 'Away' },
      { user: coworker, id: vacationId, name: 'Vacation', work_code: 'VAC', public_name: undefined },
    ]);
  });

  it('an admin (session) and the API credential see every type, with the public name beside it', async () => {
    const everything = [
      { user: ill, id: sickId, name: 'Sick', work_code: 'SL', public_name: 'Off' },
      { user: coworker, id: familyId, name: 'Family leave', work_code: 'FL', public_name: 'Away' },
      { user: coworker, id: vacationId, name: 'Vacation', work_code: 'VAC', public_name: undefined },
    ];
    expect(timeOffOfDay(await getAs(adminId, '/schedule', day))).toEqual(everything);
    expect(timeOffOfDay(await org.get('/schedule', { query: day }))).toEqual(everything);
    // the member's masked view was not kept for the others, nor theirs for the member
    expect(timeOffOfDay(await getAs(coworker, '/schedule', day))[0]).toMatchObject({ name: 'Off', id: 0 });
  });

  it('a masked item shows in the same grey whatever its type, so that its colour tells nothing', async () => {
    const items = (await getAs(coworker, '/schedule', day)).body.days[0].time_off;
    expect(items[0].time_off_type).toMatchObject({ color: '#6b7280', text_color: '#FFFFFF', subtypes: [] });
    expect(items[0].time_off_type.href).toMatch(/\/time_off_types\/0$/);
  });

  it('unmasking the type shows it to members at once', async () => {
    expect((await org.patch(`/time_off_types/${sickId}`, { masked: false })).status).toBe(200);
    expect(timeOffOfDay(await getAs(coworker, '/schedule', day))[0]).toMatchObject({ id: sickId, name: 'Sick' });
    expect((await org.patch(`/time_off_types/${sickId}`, { masked: true })).status).toBe(200);
    expect(timeOffOfDay(await getAs(coworker, '/schedule', day))[0]).toMatchObject({ id: 0, name: 'Off' });
  });
});

describe('masked time off types elsewhere', () => {
  it('GET /time_off_types shows masked and public_name; public_name "" or null is "Off"', async () => {
    const types = (await org.get('/time_off_types')).body as Array<{ id: string; masked: boolean }>;
    expect(types.find((t) => t.id === String(sickId))).toMatchObject({ masked: true, public_name: 'Off' });
    expect(types.find((t) => t.id === String(familyId))).toMatchObject({ masked: true, public_name: 'Away' });
    expect(types.find((t) => t.id === String(vacationId))).toMatchObject({ masked: false, public_name: 'Off' });
    const detail = await org.get(`/time_off_types/${familyId}`);
    expect(detail.body).toMatchObject({ masked: true, public_name: 'Away' });
    const refused = await org.patch(`/time_off_types/${familyId}`, {
      masked: 'sometimes',
      public_name: 'x'.repeat(300),
    });
    expect(refused.status).toBe(422);
    expect(refused.text).toMatch(/masked/i);
    expect(refused.text).toMatch(/public name/i);
  });

  it("the person's own list (GET /users/{id}/time_offs, session) names the type", async () => {
    const own = await getAs(ill, `/users/${ill}/time_offs`, { start: day.start, end: day.end });
    expect(own.status, own.text).toBe(200);
    expect(own.body.map((t: { time_off_type: TypeShown }) => t.time_off_type)).toEqual([
      { id: String(sickId), name: 'Sick', work_code: 'SL' },
    ]);
  });

  it('GET /time_offs (the API credential, an admin) names the type', async () => {
    const listed = await org.get('/time_offs', { query: day });
    expect(listed.status, listed.text).toBe(200);
    const names = listed.body.items.map((t: { time_off_type: TypeShown }) => t.time_off_type.name);
    expect(names).toEqual(['Sick', 'Family leave', 'Vacation']);
  });

  it('calendar feeds (a user\'s and an assignment\'s) name masked leave "Off": their URL is shared', async () => {
    const feedOf = async (body: Record<string, unknown>) => {
      const feed = await org.post('/calendar_feeds', body);
      expect(feed.status, feed.text).toBe(201);
      return (await fetch(feed.body.url)).text();
    };
    const own = await feedOf({ user_id: ill });
    expect(own).toContain('SUMMARY:Time off: Off');
    expect(own).not.toMatch(/Sick/);
    const station = await feedOf({ assignment_id: stationId });
    expect(station).toContain('SUMMARY:Ira Ill off: Off');
    expect(station).not.toMatch(/Sick/);
    const coworkers = await feedOf({ user_id: coworker });
    expect(coworkers).toContain('SUMMARY:Time off: Away');
    expect(coworkers).toContain('SUMMARY:Time off: Vacation');
    expect(coworkers).not.toMatch(/Family/);
  });
});
