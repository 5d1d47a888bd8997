import { afterAll, describe, expect, it } from 'vitest';
import { startServer } from '../../../test/helpers/server.js';
import { createAssignment, createRotation, placeOnRotation } from '../rotations/test-fixtures.js';
import { postTimeOff } from './test-fixtures.js';

/**
 * Date-only leave (docs/time-off.md#date-only-leave) on a 24/48 department: Engine 1 07:00 to 07:00,
 * crews A/B/C anchored 2027-04-01 (A works 04-01, 04-04, 04-07, 04-10, 04-13; C 04-03, 04-06, 04-09, 04-12).
 */
const server = await startServer();
afterAll(() => server.close());
const org = await server.newOrg({ timezone: 'America/Chicago' });
const engine = await createAssignment(org, {
  name: 'Engine 1',
  start: '2027-04-01 07:00:00',
  end: '2027-04-02 07:00:00',
});
const rotation = await createRotation(org, { anchor_date: '2027-04-01', preset: '24/48' });
const admin = await org.createUser({ first_name: 'Battalion', last_name: 'Chief', role: 'Admin' });
const crew = { A: 0, B: 0, C: 0 };
for (const name of ['A', 'B', 'C'] as const) {
  crew[name] = await org.createUser({ first_name: `Crew${name}`, last_name: 'Member' });
  await placeOnRotation(org, { user_id: crew[name], rotation_id: rotation, assignment_id: engine, crew: name });
}
const vacation = (await org.post('/time_off_types', { label: 'Vacation' })).body.id as number;

async function leave(userId: number, start: string, end: string, status = 1) {
  const response = await postTimeOff(org, { userId, adminId: admin, typeId: vacation, start, end, status });
  expect(response.status, response.text).toBe(201);
  const segments = (await org.get(`/time_offs/${response.body.id}`)).body.items as Array<{
    start: string;
    end: string;
    length: number;
  }>;
  return { id: response.body.id as number, segments };
}

/** The entry's own start and end (GET /users/{id}/time_offs: one item per entry). */
async function spanOf(userId: number, id: number) {
  const listed = await org.get(`/users/${userId}/time_offs`, {
    query: { start: '2027-03-01 00:00:00', end: '2027-06-01 00:00:00' },
  });
  const entry = listed.body.find((e: { id: string }) => e.id === String(id));
  return [entry.start, entry.end];
}

const charged = (segments: Array<{ length: number }>) => segments.reduce((sum, s) => sum + s.length, 0);
const worked = (segments: Array<{ start: string; end: string; length: number }>) =>
  segments.filter((s) => s.length > 0).map((s) => [s.start, s.end, s.length]);

describe('leave entered as dates', () => {
  it('covers the work that starts on those dates: the tour of the day before is not cut', async () => {
    const { id, segments } = await leave(crew.A, '2027-04-05', '2027-04-12');
    expect(worked(segments)).toEqual([
      ['2027-04-07 07:00:00', '2027-04-08 07:00:00', 24],
      ['2027-04-10 07:00:00', '2027-04-11 07:00:00', 24],
    ]);
    expect(await spanOf(crew.A, id)).toEqual(['2027-04-05 07:00:00', '2027-04-13 00:00:00']);
    expect(charged(segments)).toBe(48);
  });

  it('takes the whole tour of the last date, past midnight', async () => {
    const { id, segments } = await leave(crew.C, '2027-04-05', '2027-04-12');
    expect(worked(segments)).toEqual([
      ['2027-04-06 07:00:00', '2027-04-07 07:00:00', 24],
      ['2027-04-09 07:00:00', '2027-04-10 07:00:00', 24],
      ['2027-04-12 07:00:00', '2027-04-13 07:00:00', 24],
    ]);
    expect(await spanOf(crew.C, id)).toEqual(['2027-04-05 00:00:00', '2027-04-13 07:00:00']);
  });

  it('charges 0 for a date with no work, and leaves the seat of the day before staffed', async () => {
    const { segments } = await leave(crew.B, '2027-04-04', '2027-04-04');
    expect(charged(segments)).toBe(0);
    const day = (await org.get('/schedule', { query: { start: '2027-04-04 00:00:00', end: '2027-04-05 00:00:00' } }))
      .body.days[0];
    expect(day.time_off.map((t: { user: { id: number } }) => t.user.id)).toContain(crew.B);
  });

  it("is the same for a member's own request (POST /users/{id}/time_offs)", async () => {
    const response = await org.post(`/users/${crew.A}/time_offs`, {
      time_off_type_id: vacation,
      start_date: '2027-04-13',
      end_date: '2027-04-13',
    });
    expect(response.status, response.text).toBe(201);
    const segments = (await org.get(`/time_offs/${response.body.id}`)).body.items;
    expect(worked(segments)).toEqual([['2027-04-13 07:00:00', '2027-04-14 07:00:00', 24]]);
  });

  it('is the same when a member edits their request to dates (PATCH /users/{id}/time_offs/{id})', async () => {
    const requested = await org.post(`/users/${crew.A}/time_offs`, {
      time_off_type_id: vacation,
      start_date: '2027-04-19',
      end_date: '2027-04-19',
    });
    expect(requested.status, requested.text).toBe(201);
    const id = requested.body.id as number;
    const edited = await org.patch(`/users/${crew.A}/time_offs/${id}`, {
      start_date: '2027-04-16',
      end_date: '2027-04-16',
    });
    expect(edited.status, edited.text).toBe(200);
    expect(await spanOf(crew.A, id)).toEqual(['2027-04-16 00:00:00', '2027-04-17 07:00:00']);
    const segments = (await org.get(`/time_offs/${id}`)).body.items;
    expect(worked(segments)).toEqual([['2027-04-16 07:00:00', '2027-04-17 07:00:00', 24]]);
  });

  it('keeps reading a date beside a datetime from midnight, and refuses a last date before the first', async () => {
    const { id } = await leave(crew.B, '2027-04-20', '2027-04-21 00:00:00', 0);
    expect(await spanOf(crew.B, id)).toEqual(['2027-04-20 00:00:00', '2027-04-21 00:00:00']);
    const backwards = await postTimeOff(org, {
      userId: crew.B,
      adminId: admin,
      start: '2027-05-12',
      end: '2027-05-05',
      typeId: vacation,
    });
    expect(backwards.status).toBe(422);
  });

  it('names a last date past the calendar (9999-12-31) as the end date out of range', async () => {
    const far = { userId: crew.B, adminId: admin, typeId: vacation, start: '9999-12-30', end: '9999-12-31' };
    expect(await postTimeOff(org, far)).toBeInvalid([
      'The end date is out of range: leave entered as dates may end on 9999-12-30 at the latest.',
    ]);
    const own = await org.post(`/users/${crew.B}/time_offs`, {
      time_off_type_id: vacation,
      start_date: '2027-05-20',
      end_date: '9999-12-31',
    });
    expect(own).toBeInvalid([
      'The end date is out of range: leave entered as dates may end on 9999-12-30 at the latest.',
    ]);
    // a far date the calendar holds is judged by the length of the leave, as before
    const long = await postTimeOff(org, { ...far, start: '2027-05-20', end: '2099-12-31' });
    expect(long).toBeInvalid(['The time off may not be longer than 366 days.']);
  });
});
