import { describe, expect, it } from 'vitest';
import { expectAuthRequired, expectNotFoundForOtherOrg } from '../../../test/helpers/common.js';
import { useOrgs } from '../../../test/helpers/server.js';
import { Temporal } from '../../core/time.js';
import { createTimeOff } from '../time-offs/test-fixtures.js';

const { server, org, other } = await useOrgs();
const userId = await org.createUser({ first_name: 'Brycen', last_name: 'Doe' });
const adminId = await org.createUser({ first_name: 'Oliver', last_name: 'Service' });
const typeId: number = (await org.post('/time_off_types', { label: 'Vacation', work_code: 'VAC001' })).body.id;

const ISO = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/);
const daysFromToday = (days: number) => Temporal.Now.plainDateISO('America/Chicago').add({ days }).toString();

const strRef = (id: number, name: string) => ({ id: String(id), name, href: `${server.url}/v1/users/${id}` });

async function adminEntry(start: string, end: string, extra: Record<string, unknown> = {}) {
  const response = await createTimeOff(org, { userId, adminId, start, end, typeId }, extra);
  return response.body.id as number;
}

describe('GET /users/{user_id}/time_offs', () => {
  it('lists the entries of the last month by default, with string ids and rrule', async () => {
    const recent = await adminEntry(`${daysFromToday(-3)} 07:00:00`, `${daysFromToday(-2)} 07:00:00`, { status: 1 });
    await adminEntry(`${daysFromToday(-60)} 07:00:00`, `${daysFromToday(-59)} 07:00:00`);
    await adminEntry(`${daysFromToday(5)} 07:00:00`, `${daysFromToday(6)} 07:00:00`);
    const response = await org.get(`/users/${userId}/time_offs`);
    expect(response).toAnswer(200, [
      {
        id: String(recent),
        time_off_type: { id: String(typeId), name: 'Vacation', work_code: 'VAC001' },
        user: strRef(userId, 'Brycen Doe'),
        admin: strRef(adminId, 'Oliver Service'),
        start: `${daysFromToday(-3)} 07:00:00`,
        end: `${daysFromToday(-2)} 07:00:00`,
        rrule: null,
        status: '1',
        request_date: ISO,
        approval_date: ISO,
        acknowledgement_date: null,
        user_note: null,
        traded_with: null,
      },
    ]);
  });

  it('takes start and end, and shows recurring leave with its rule', async () => {
    const weekly = await adminEntry('2030-01-07 08:00:00', '2030-01-07 12:00:00', { rrule: 'FREQ=WEEKLY;COUNT=10' });
    const response = await org.get(`/users/${userId}/time_offs`, {
      query: { start: '2030-03-01 00:00:00', end: '2030-03-08 00:00:00' },
    });
    expect(response.body.map((e: { id: string; rrule: string; start: string }) => [e.id, e.rrule, e.start])).toEqual([
      [String(weekly), 'FREQ=WEEKLY;COUNT=10', '2030-01-07 08:00:00'],
    ]);
  });

  it('hides denied entries unless status=2 is asked for', async () => {
    const id = await adminEntry('2031-02-01 08:00:00', '2031-02-02 08:00:00');
    await org.post(`/time_offs/${id}/deny`);
    const query = { start: '2031-02-01 00:00:00', end: '2031-03-01 00:00:00' };
    expect((await org.get(`/users/${userId}/time_offs`, { query })).body).toEqual([]);
    const denied = await org.get(`/users/${userId}/time_offs`, { query: { ...query, status: 2 } });
    expect(denied.body.map((e: { id: string; status: string }) => [e.id, e.status])).toEqual([[String(id), '2']]);
  });

  it('answers 404 for an unknown user or one of another organization', async () => {
    const response = await org.get('/users/999999/time_offs');
    expect(response).toBeNotFound('User');
    await expectNotFoundForOtherOrg(other, 'GET', `/users/${userId}/time_offs`);
  });

  it('requires a token', async () => {
    await expectAuthRequired(server, 'GET', `/users/${userId}/time_offs`);
  });
});

describe('POST /users/{user_id}/time_offs', () => {
  it("creates a pending request by the user, logged as the user's action", async () => {
    const response = await org.post(`/users/${userId}/time_offs`, {
      time_off_type_id: typeId,
      start_date: '2032-04-01 08:00:00',
      end_date: '2032-04-02 08:00:00',
      user_note: 'Family visit',
    });
    expect(response).toSucceed(201, 'Time off requested successfully.', {
      id: expect.any(Number),
    });
    const listed = await org.get(`/users/${userId}/time_offs`, {
      query: { start: '2032-04-01 00:00:00', end: '2032-05-01 00:00:00' },
    });
    expect(listed.body).toEqual([
      expect.objectContaining({
        id: String(response.body.id),
        status: '0',
        admin: null,
        user_note: 'Family visit',
        approval_date: null,
      }),
    ]);
    const logs = await org.get('/logs');
    expect(logs.body.data[0].event_description).toBe(
      'Brycen Doe requested time off (Vacation) for Brycen Doe, 2032-04-01 08:00 to 2032-04-02 08:00.',
    );
  });

  it('validates the type, the dates and the note', async () => {
    const base = { time_off_type_id: typeId, start_date: '2032-04-01 08:00:00', end_date: '2032-04-02 08:00:00' };
    expect(await org.post(`/users/${userId}/time_offs`, { ...base, time_off_type_id: 999999 })).toBeInvalid([
      'The selected time off type id is invalid.',
    ]);
    expect((await org.post(`/users/${userId}/time_offs`, { ...base, end_date: '2032-03-01 08:00:00' })).status).toBe(
      422,
    );
    expect((await org.post(`/users/${userId}/time_offs`, { ...base, user_note: 'x'.repeat(1001) })).status).toBe(422);
    expect((await org.post('/users/999999/time_offs', base)).status).toBe(404);
    await expectNotFoundForOtherOrg(other, 'POST', `/users/${userId}/time_offs`, base);
  });
});

describe('PATCH /users/{user_id}/time_offs/{id}', () => {
  it('edits a pending request', async () => {
    const id = (
      await org.post(`/users/${userId}/time_offs`, {
        time_off_type_id: typeId,
        start_date: '2033-05-01 08:00:00',
        end_date: '2033-05-02 08:00:00',
      })
    ).body.id;
    const response = await org.patch(`/users/${userId}/time_offs/${id}`, {
      end_date: '2033-05-03 08:00:00',
      user_note: 'Longer trip',
    });
    expect(response).toSucceed(200, 'Time off request updated successfully.', {
      id,
    });
    const read = await org.get(`/time_offs/${id}`);
    expect(
      read.body.items.map((item: { start: string; end: string; user_note: string }) => [
        item.start,
        item.end,
        item.user_note,
      ]),
    ).toEqual([
      ['2033-05-01 08:00:00', '2033-05-02 08:00:00', 'Longer trip'],
      ['2033-05-02 08:00:00', '2033-05-03 08:00:00', 'Longer trip'],
    ]);
  });

  it('answers 422 once the request is approved, and for an end before the start', async () => {
    const id = (
      await org.post(`/users/${userId}/time_offs`, {
        time_off_type_id: typeId,
        start_date: '2033-06-01 08:00:00',
        end_date: '2033-06-02 08:00:00',
      })
    ).body.id;
    const reversed = await org.patch(`/users/${userId}/time_offs/${id}`, { end_date: '2033-05-01 08:00:00' });
    expect(reversed).toBeInvalid(['The end date must be after the start date.']);
    await org.post(`/time_offs/${id}/approve`, { admin_id: adminId });
    const response = await org.patch(`/users/${userId}/time_offs/${id}`, { user_note: 'too late' });
    expect(response).toBeInvalid(['Only pending time off can be changed; this time off is approved.']);
  });

  it("answers 404 for another user's entry, an unknown one, or another organization", async () => {
    const id = (
      await org.post(`/users/${userId}/time_offs`, {
        time_off_type_id: typeId,
        start_date: '2033-07-01 08:00:00',
        end_date: '2033-07-02 08:00:00',
      })
    ).body.id;
    const response = await org.patch(`/users/${adminId}/time_offs/${id}`, { user_note: 'not mine' });
    expect(response).toBeNotFound('TimeOff');
    expect((await org.patch(`/users/${userId}/time_offs/999999`, { user_note: 'x' })).status).toBe(404);
    await expectNotFoundForOtherOrg(other, 'PATCH', `/users/${userId}/time_offs/${id}`, { user_note: 'x' });
  });
});
