import { beforeAll, describe, expect, it } from 'vitest';
import { expectAuthRequired, expectNotFoundForOtherOrg } from '../../../test/helpers/common.js';
import { useOrgs, type TestOrg } from '../../../test/helpers/server.js';
import { approvedTimeOffs } from '../../scheduling/index.js';
import { createTimeOff, postTimeOff } from './test-fixtures.js';

const { server, org, other } = await useOrgs();
const userId = await org.createUser({ first_name: 'Brycen', last_name: 'Doe' });
const adminId = await org.createUser({ first_name: 'Oliver', last_name: 'Service' });
const vacationId: number = (await org.post('/time_off_types', { label: 'Vacation', work_code: 'VAC001' })).body.id;

const ISO = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/);

const ref = (id: number, name: string) => ({ id, name, href: `${server.url}/v1/users/${id}` });

/** The time off list of 2035-01-01 to 2035-04-01 (a three-month period) as page links name it. */
const pagedList = () => `${server.url}/v1/time_offs?start=2035-01-01+00%3A00%3A00&end=2035-04-01+00%3A00%3A00`;

/** Each default entry gets days of its own: a user's pending and approved entries may not overlap. */
let defaultSlot = 0;

async function timeOffInSlot(overrides: Record<string, unknown> = {}, as: TestOrg = org) {
  defaultSlot += 1;
  const month = String(7 + Math.floor(defaultSlot / 9)).padStart(2, '0');
  const day = (offset: number) =>
    `2030-${month}-${String((defaultSlot % 9) * 3 + 1 + offset).padStart(2, '0')} 07:00:00`;
  const response = await postTimeOff(
    as,
    { userId, adminId, start: day(0), end: day(2), typeId: vacationId },
    overrides,
  );
  if (response.status !== 201) throw new Error(`time off creation failed: ${response.text}`);
  return response.body.id as number;
}

const segment = (id: number, start: string, end: string, length: number, extra: Record<string, unknown> = {}) => ({
  id,
  time_off_type: { id: vacationId, name: 'Vacation', work_code: 'VAC001' },
  user: ref(userId, 'Brycen Doe'),
  admin: ref(adminId, 'Oliver Service'),
  start,
  end,
  length,
  real_length: length,
  status: 0,
  request_date: ISO,
  approval_date: null,
  acknowledgement_date: null,
  user_note: null,
  traded_with: null,
  ...extra,
});

describe('POST /time_offs', () => {
  it('creates a pending entry by default and answers 201 with its id', async () => {
    const response = await postTimeOff(
      org,
      { userId, adminId, start: '2030-01-05 08:00:00', end: '2030-01-06 08:00:00', typeId: vacationId },
      { user_note: 'I would like to go to Hawaii' },
    );
    expect(response).toSucceed(201, 'Time off created successfully.', {
      id: expect.any(Number),
    });
    const read = await org.get(`/time_offs/${response.body.id}`);
    expect(read.body).toEqual({
      items: [
        segment(response.body.id, '2030-01-05 08:00:00', '2030-01-06 08:00:00', 24, {
          user_note: 'I would like to go to Hawaii',
        }),
      ],
      metadata: [],
    });
  });

  it('creates an approved entry with status 1, dated approval', async () => {
    const id = await timeOffInSlot({ status: 1, start_date: '2030-01-08 08:00:00', end_date: '2030-01-09 08:00:00' });
    const read = await org.get(`/time_offs/${id}`);
    expect(read.body.items).toEqual([
      segment(id, '2030-01-08 08:00:00', '2030-01-09 08:00:00', 24, { status: 1, approval_date: ISO }),
    ]);
  });

  it('accepts a user note of 1000 characters and rejects a longer one', async () => {
    await timeOffInSlot({
      user_note: 'x'.repeat(1000),
      start_date: '2030-01-10 08:00:00',
      end_date: '2030-01-10 18:00:00',
    });
    const response = await postTimeOff(
      org,
      { userId, adminId, start: '2030-01-10 08:00:00', end: '2030-01-10 18:00:00', typeId: vacationId },
      { user_note: 'x'.repeat(1001) },
    );
    expect(response).toBeInvalid(['The user note may not be greater than 1000 characters.']);
  });

  it('requires user_id, admin_ids, start_date, end_date and time_off_type_id', async () => {
    const body = {
      user_id: userId,
      admin_ids: [adminId],
      start_date: '2030-01-10 08:00:00',
      end_date: '2030-01-11 08:00:00',
      time_off_type_id: vacationId,
    };
    for (const field of Object.keys(body)) {
      const partial: Record<string, unknown> = { ...body };
      delete partial[field];
      const response = await org.post('/time_offs', partial);
      expect(response.status, field).toBe(422);
      expect(response).toBeInvalid([`The ${field.replace(/_/g, ' ')} field is required.`]);
    }
  });

  it('rejects a status other than 0 or 1', async () => {
    const response = await postTimeOff(org, {
      userId,
      adminId,
      start: '2030-01-10 08:00:00',
      end: '2030-01-11 08:00:00',
      typeId: vacationId,
      status: 2,
    });
    expect(response.status).toBe(422);
    expect(response.body.error).toBe('invalid_params');
  });

  it('rejects ids that name nothing of the organization', async () => {
    const base = {
      user_id: userId,
      admin_ids: [adminId],
      start_date: '2030-01-10 08:00:00',
      end_date: '2030-01-11 08:00:00',
      time_off_type_id: vacationId,
    };
    const foreignType = (await other.post('/time_off_types', { label: 'Foreign' })).body.id;
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ user_id: 999999 }, 'The selected user id is invalid.'],
      [{ admin_ids: [adminId, 999999] }, 'The selected admin id is invalid.'],
      [{ time_off_type_id: 999999 }, 'The selected time off type id is invalid.'],
      [{ time_off_type_id: foreignType }, 'The selected time off type id is invalid.'],
    ];
    for (const [override, message] of cases) {
      const response = await org.post('/time_offs', { ...base, ...override });
      expect(response).toBeInvalid([message]);
    }
  });

  it('rejects an end that is not after the start', async () => {
    const response = await postTimeOff(org, {
      userId,
      adminId,
      start: '2030-01-11 08:00:00',
      end: '2030-01-11 08:00:00',
      typeId: vacationId,
    });
    expect(response).toBeInvalid(['The end date must be after the start date.']);
  });

  it('enforces required_buffer on pending requests only', async () => {
    const typeId = (await org.post('/time_off_types', { label: 'Planned', required_buffer: 48 })).body.id;
    const soon = new Date(Date.now() + 24 * 3600 * 1000).toISOString().slice(0, 10);
    const body = {
      user_id: userId,
      admin_ids: [adminId],
      start_date: `${soon} 12:00:00`,
      end_date: `${soon} 20:00:00`,
      time_off_type_id: typeId,
    };
    const early = await org.post('/time_offs', body);
    expect(early).toBeInvalid(['Time off of type Planned must be requested at least 48 hours before it starts.']);
    expect((await org.post('/time_offs', { ...body, status: 1 })).status).toBe(201);
    expect(
      (await org.post('/time_offs', { ...body, start_date: '2031-01-01 08:00:00', end_date: '2031-01-02 08:00:00' }))
        .status,
    ).toBe(201);
  });

  it('enforces instance_limit per user and calendar year; denied entries do not count', async () => {
    const typeId = (await org.post('/time_off_types', { label: 'Sick', instance_limit: 1 })).body.id;
    const first = await timeOffInSlot({
      time_off_type_id: typeId,
      start_date: '2032-03-01 08:00:00',
      end_date: '2032-03-02 08:00:00',
    });
    const again = await postTimeOff(org, {
      userId,
      adminId,
      start: '2032-05-01 08:00:00',
      end: '2032-05-02 08:00:00',
      typeId,
    });
    expect(again).toBeInvalid(['The Sick time off type allows at most 1 per year; the limit for 2032 is reached.']);
    await timeOffInSlot({
      time_off_type_id: typeId,
      start_date: '2033-03-01 08:00:00',
      end_date: '2033-03-02 08:00:00',
    });
    const otherUser = await org.createUser();
    await timeOffInSlot({
      user_id: otherUser,
      time_off_type_id: typeId,
      start_date: '2032-03-01 08:00:00',
      end_date: '2032-03-02 08:00:00',
    });
    await org.post(`/time_offs/${first}/deny`);
    await timeOffInSlot({
      time_off_type_id: typeId,
      start_date: '2032-06-01 08:00:00',
      end_date: '2032-06-02 08:00:00',
    });
  });

  it('writes a system log line naming the admin', async () => {
    await timeOffInSlot({ status: 1, start_date: '2030-02-02 07:00:00', end_date: '2030-02-03 07:00:00' });
    const logs = await org.get('/logs');
    expect(logs.body.data[0].event_description).toBe(
      'Oliver Service created approved time off (Vacation) for Brycen Doe, 2030-02-02 07:00 to 2030-02-03 07:00.',
    );
  });

  it('requires a token', async () => {
    await expectAuthRequired(server, 'POST', '/time_offs', {});
  });
});

describe('GET /time_offs', () => {
  let listOrg: TestOrg;
  let typeId: number;
  let person: number;

  beforeAll(async () => {
    listOrg = await server.newOrg();
    person = await listOrg.createUser();
    typeId = (await listOrg.post('/time_off_types', { label: 'Vacation' })).body.id;
  });

  const add = async (start: string, end: string, extra: Record<string, unknown> = {}) => {
    const response = await createTimeOff(listOrg, { userId: person, adminId: person, start, end, typeId }, extra);
    return response.body.id as number;
  };

  it('splits an entry without rotation into one 24-hour segment per day', async () => {
    const id = await timeOffInSlot({ status: 1, start_date: '2034-07-10 07:00:00', end_date: '2034-07-12 07:00:00' });
    const response = await org.get('/time_offs', {
      query: { start: '2034-07-01 00:00:00', end: '2034-08-01 00:00:00' },
    });
    expect(response).toAnswer(200, {
      items: [
        segment(id, '2034-07-10 07:00:00', '2034-07-11 07:00:00', 24, { status: 1, approval_date: ISO }),
        segment(id, '2034-07-11 07:00:00', '2034-07-12 07:00:00', 24, { status: 1, approval_date: ISO }),
      ],
      metadata: {
        start: '2034-07-01 00:00:00',
        end: '2034-08-01 00:00:00',
        page_start: '2034-07-01 00:00:00',
        page_end: '2034-08-01 00:00:00',
        links: { prev: null, next: null },
      },
    });
  });

  it('pages a three-month period month by month; next reaches the last page without loss or duplicates', async () => {
    const ids = [
      await add('2035-01-05 08:00:00', '2035-01-06 08:00:00'),
      await add('2035-01-31 08:00:00', '2035-02-02 08:00:00'),
      await add('2035-02-14 08:00:00', '2035-02-15 08:00:00', { status: 1 }),
      await add('2035-03-20 08:00:00', '2035-03-21 08:00:00'),
    ];
    const first = await listOrg.get('/time_offs', {
      query: { start: '2035-01-01 00:00:00', end: '2035-04-01 00:00:00' },
    });
    expect(first.status).toBe(200);
    expect(first.body.metadata).toEqual({
      start: '2035-01-01 00:00:00',
      end: '2035-04-01 00:00:00',
      page_start: '2035-01-01 00:00:00',
      page_end: '2035-02-01 00:00:00',
      links: {
        prev: null,
        next: `${pagedList()}&after=2035-02-01+00%3A00%3A00&limit=500`,
      },
    });
    const pages = [first.body];
    let next: string | null = first.body.metadata.links.next;
    while (next) {
      const page = await listOrg.get(next);
      expect(page.status).toBe(200);
      pages.push(page.body);
      next = page.body.metadata.links.next;
    }
    expect(pages).toHaveLength(3);
    expect(pages.map((p) => [p.metadata.page_start, p.metadata.page_end])).toEqual([
      ['2035-01-01 00:00:00', '2035-02-01 00:00:00'],
      ['2035-02-01 00:00:00', '2035-03-01 00:00:00'],
      ['2035-03-01 00:00:00', '2035-04-01 00:00:00'],
    ]);
    expect(pages[2].metadata.links).toEqual({
      prev: `${pagedList()}&after=2035-02-01+00%3A00%3A00&limit=500`,
      next: null,
    });
    const seen = pages.flatMap((p) => p.items.map((item: { id: number; start: string }) => `${item.id}@${item.start}`));
    expect(seen).toEqual([
      `${ids[0]}@2035-01-05 08:00:00`,
      `${ids[1]}@2035-01-31 08:00:00`,
      `${ids[1]}@2035-02-01 08:00:00`,
      `${ids[2]}@2035-02-14 08:00:00`,
      `${ids[3]}@2035-03-20 08:00:00`,
    ]);
  });

  it('honours limit: a full page ends where the next segment starts', async () => {
    const first = await listOrg.get('/time_offs', {
      query: { start: '2035-01-01 00:00:00', end: '2035-04-01 00:00:00', limit: 1 },
    });
    expect(first.body.items.map((item: { start: string }) => item.start)).toEqual(['2035-01-05 08:00:00']);
    expect(first.body.metadata.page_end).toBe('2035-01-31 08:00:00');
    expect(first.body.metadata.links.next).toBe(`${pagedList()}&after=2035-01-31+08%3A00%3A00&limit=1`);
    const tooMany = await listOrg.get('/time_offs', {
      query: { start: '2035-01-01 00:00:00', end: '2035-04-01 00:00:00', limit: 1001 },
    });
    expect(tooMany.status).toBe(422);
  });

  it('lists pending and approved entries, and denied ones only with status=2', async () => {
    const denied = await add('2036-01-10 08:00:00', '2036-01-11 08:00:00');
    const pending = await add('2036-01-12 08:00:00', '2036-01-13 08:00:00');
    expect((await listOrg.post(`/time_offs/${denied}/deny`)).status).toBe(200);
    const listed = await listOrg.get('/time_offs', {
      query: { start: '2036-01-01 00:00:00', end: '2036-02-01 00:00:00' },
    });
    expect(listed.body.items.map((item: { id: number; status: number }) => [item.id, item.status])).toEqual([
      [pending, 0],
    ]);
    const deniedOnly = await listOrg.get('/time_offs', {
      query: { start: '2036-01-01 00:00:00', end: '2036-02-01 00:00:00', status: 2 },
    });
    expect(deniedOnly.body.items.map((item: { id: number; status: number }) => [item.id, item.status])).toEqual([
      [denied, 2],
    ]);
  });

  it('keeps an entry that began before the period on the first page only', async () => {
    const id = await add('2037-01-30 08:00:00', '2037-02-03 08:00:00');
    const page = await listOrg.get('/time_offs', {
      query: { start: '2037-02-01 00:00:00', end: '2037-03-01 00:00:00' },
    });
    expect(page.body.items.map((item: { id: number; start: string }) => `${item.id}@${item.start}`)).toEqual([
      `${id}@2037-01-31 08:00:00`,
      `${id}@2037-02-01 08:00:00`,
      `${id}@2037-02-02 08:00:00`,
    ]);
  });

  it("does not list another organization's entries", async () => {
    const page = await other.get('/time_offs', { query: { start: '2035-01-01 00:00:00', end: '2035-04-01 00:00:00' } });
    expect(page.body.items).toEqual([]);
  });

  it('requires start and end, end after start, after within them', async () => {
    const missing = await org.get('/time_offs', { query: { start: '2035-01-01 00:00:00' } });
    expect(missing).toBeInvalid(['The end parameter is required.']);
    const reversed = await org.get('/time_offs', {
      query: { start: '2035-02-01 00:00:00', end: '2035-01-01 00:00:00' },
    });
    expect(reversed).toBeInvalid(['The end must be after the start.']);
    const outside = await org.get('/time_offs', {
      query: { start: '2035-01-01 00:00:00', end: '2035-02-01 00:00:00', after: '2036-01-01 00:00:00' },
    });
    expect(outside).toBeInvalid(['The after must be a date within start and end.']);
    const bad = await org.get('/time_offs', { query: { start: 'yesterday', end: '2035-02-01 00:00:00' } });
    expect(bad.status).toBe(422);
  });

  it('requires a token', async () => {
    await expectAuthRequired(server, 'GET', '/time_offs?start=2035-01-01&end=2035-02-01');
  });
});

describe('GET /time_offs on a rotation', () => {
  it("gives a two-week leave on a 24/48 rotation one segment per rotation shift, of that shift's length", async () => {
    const crewOrg = await server.newOrg();
    const firefighter = await crewOrg.createUser();
    const type = (await crewOrg.post('/time_off_types', { label: 'Vacation' })).body.id;
    const assignment = await crewOrg.post('/assignments', {
      name: 'Engine 1',
      start: '2026-03-01 07:00:00',
      end: '2026-03-02 07:00:00',
      positions_to_fill: 1,
    });
    expect(assignment.status).toBe(201);
    const rotation = await crewOrg.post('/rotations', { name: 'Platoons', anchor_date: '2026-03-01', preset: '24/48' });
    expect(rotation.status).toBe(201);
    const member = await crewOrg.post('/recurring_shifts', {
      user_id: firefighter,
      rotation_id: rotation.body.id,
      start_date: '2026-03-01',
      assignment_id: assignment.body.id,
      crew: 'A',
      break_start: '12:00',
      break_length: 0.5,
    });
    expect(member.status).toBe(201);
    const leave = await createTimeOff(crewOrg, {
      userId: firefighter,
      adminId: firefighter,
      start: '2026-03-02 07:00:00',
      end: '2026-03-16 07:00:00',
      typeId: type,
      status: 1,
    });

    const page = await crewOrg.get('/time_offs', {
      query: { start: '2026-03-01 00:00:00', end: '2026-04-01 00:00:00' },
    });
    expect(page.status).toBe(200);
    // Crew A works every third day from the anchor: Mar 4, 7, 10, 13 fall inside the leave; the
    // Mar 7 shift runs into the spring DST change and lasts 23 real hours.
    expect(
      page.body.items.map((item: { id: number; start: string; end: string; length: number; real_length: number }) => [
        item.id,
        item.start,
        item.end,
        item.length,
        item.real_length,
      ]),
    ).toEqual([
      [leave.body.id, '2026-03-04 07:00:00', '2026-03-05 07:00:00', 24, 23.5],
      [leave.body.id, '2026-03-07 07:00:00', '2026-03-08 07:00:00', 23, 22.5],
      [leave.body.id, '2026-03-10 07:00:00', '2026-03-11 07:00:00', 24, 23.5],
      [leave.body.id, '2026-03-13 07:00:00', '2026-03-14 07:00:00', 24, 23.5],
    ]);
    const single = await crewOrg.get(`/time_offs/${leave.body.id}`);
    expect(single.body.items.map((item: { start: string }) => item.start)).toEqual([
      '2026-03-04 07:00:00',
      '2026-03-07 07:00:00',
      '2026-03-10 07:00:00',
      '2026-03-13 07:00:00',
    ]);
  });
});

describe('GET /time_offs/{id}', () => {
  it('returns every segment of the entry with empty metadata', async () => {
    const id = await timeOffInSlot({ start_date: '2038-03-01 07:00:00', end_date: '2038-03-03 07:00:00' });
    const response = await org.get(`/time_offs/${id}`);
    expect(response).toAnswer(200, {
      items: [
        segment(id, '2038-03-01 07:00:00', '2038-03-02 07:00:00', 24),
        segment(id, '2038-03-02 07:00:00', '2038-03-03 07:00:00', 24),
      ],
      metadata: [],
    });
  });

  it('answers 404 for an unknown id and for another organization', async () => {
    const response = await org.get('/time_offs/999999');
    expect(response).toBeNotFound('TimeOff');
    const id = await timeOffInSlot();
    await expectNotFoundForOtherOrg(other, 'GET', `/time_offs/${id}`);
  });
});

describe('DELETE /time_offs/{id}', () => {
  it('removes the entry', async () => {
    const id = await timeOffInSlot({ status: 1 });
    const response = await org.del(`/time_offs/${id}`);
    expect(response).toSucceed(200, 'Time Off removed successfully.');
    expect((await org.get(`/time_offs/${id}`)).status).toBe(404);
  });

  it('answers 404 naming TimeOff when unknown, already removed or of another organization', async () => {
    const response = await org.del('/time_offs/999999');
    expect(response).toBeNotFound('TimeOff');
    const id = await timeOffInSlot();
    await expectNotFoundForOtherOrg(other, 'DELETE', `/time_offs/${id}`);
    expect((await org.del(`/time_offs/${id}`)).status).toBe(200);
    expect((await org.del(`/time_offs/${id}`)).status).toBe(404);
  });
});

describe('POST /time_offs/{id}/approve', () => {
  it('approves pending time off, recording the approving admin', async () => {
    const id = await timeOffInSlot({ start_date: '2039-01-01 08:00:00', end_date: '2039-01-02 08:00:00' });
    const boss = await org.createUser({ first_name: 'Joe', last_name: 'Boss' });
    const response = await org.post(`/time_offs/${id}/approve`, { admin_id: boss });
    expect(response).toSucceed(200, 'Time off approved successfully.', {
      id,
    });
    const read = await org.get(`/time_offs/${id}`);
    expect(read.body.items).toEqual([
      segment(id, '2039-01-01 08:00:00', '2039-01-02 08:00:00', 24, {
        status: 1,
        approval_date: ISO,
        admin: ref(boss, 'Joe Boss'),
      }),
    ]);
    const logs = await org.get('/logs');
    expect(logs.body.data[0].event_description).toBe(
      'Joe Boss approved time off (Vacation) for Brycen Doe, 2039-01-01 08:00 to 2039-01-02 08:00.',
    );
  });

  it('approves without a body, keeping the addressed admin', async () => {
    const id = await timeOffInSlot();
    expect((await org.post(`/time_offs/${id}/approve`)).status).toBe(200);
    expect((await org.get(`/time_offs/${id}`)).body.items[0]).toMatchObject({
      status: 1,
      admin: ref(adminId, 'Oliver Service'),
    });
  });

  it('answers 422 unless the entry is pending', async () => {
    const id = await timeOffInSlot({ status: 1 });
    const response = await org.post(`/time_offs/${id}/approve`);
    expect(response).toBeInvalid(['Only pending time off can be approved; this time off is approved.']);
  });

  it('answers 422 for an unknown admin, 404 for an unknown or foreign entry', async () => {
    const id = await timeOffInSlot();
    const badAdmin = await org.post(`/time_offs/${id}/approve`, { admin_id: 999999 });
    expect(badAdmin).toBeInvalid(['The selected admin id is invalid.']);
    expect((await org.post('/time_offs/999999/approve')).status).toBe(404);
    await expectNotFoundForOtherOrg(other, 'POST', `/time_offs/${id}/approve`);
  });
});

describe('POST /time_offs/{id}/deny', () => {
  it('denies pending time off: kept with status 2, readable by id', async () => {
    const id = await timeOffInSlot({ start_date: '2040-01-01 08:00:00', end_date: '2040-01-02 08:00:00' });
    const response = await org.post(`/time_offs/${id}/deny`, { admin_id: adminId });
    expect(response).toSucceed(200, 'Time off denied successfully.', {
      id,
    });
    expect((await org.get(`/time_offs/${id}`)).body.items[0]).toMatchObject({ id, status: 2, approval_date: null });
    const listed = await org.get('/time_offs', { query: { start: '2040-01-01 00:00:00', end: '2040-02-01 00:00:00' } });
    expect(listed.body.items).toEqual([]);
  });

  it('answers 422 for denied or approved entries', async () => {
    const id = await timeOffInSlot();
    await org.post(`/time_offs/${id}/deny`);
    const again = await org.post(`/time_offs/${id}/deny`);
    expect(again).toBeInvalid(['Only pending time off can be denied; this time off is denied.']);
    const approve = await org.post(`/time_offs/${id}/approve`);
    expect(approve).toBeInvalid(['Only pending time off can be approved; this time off is denied.']);
    await expectNotFoundForOtherOrg(other, 'POST', `/time_offs/${id}/deny`);
  });
});

describe('recurring leave (rrule extension)', () => {
  it('repeats the first occurrence by the rule', async () => {
    const id = await timeOffInSlot({
      start_date: '2041-01-07 08:00:00',
      end_date: '2041-01-07 18:00:00',
      rrule: 'RRULE:FREQ=WEEKLY;COUNT=3',
      status: 1,
    });
    const read = await org.get(`/time_offs/${id}`);
    expect(
      read.body.items.map((item: { start: string; end: string; length: number }) => [
        item.start,
        item.end,
        item.length,
      ]),
    ).toEqual([
      ['2041-01-07 08:00:00', '2041-01-07 18:00:00', 10],
      ['2041-01-14 08:00:00', '2041-01-14 18:00:00', 10],
      ['2041-01-21 08:00:00', '2041-01-21 18:00:00', 10],
    ]);
    const page = await org.get('/time_offs', { query: { start: '2041-01-10 00:00:00', end: '2041-02-01 00:00:00' } });
    expect(page.body.items.map((item: { start: string }) => item.start)).toEqual([
      '2041-01-14 08:00:00',
      '2041-01-21 08:00:00',
    ]);
  });

  it('rejects a rule that is not RFC 5545 or too fine-grained', async () => {
    const bad = await postTimeOff(
      org,
      { userId, adminId, start: '2041-01-07 08:00:00', end: '2041-01-07 18:00:00', typeId: vacationId },
      { rrule: 'EVERY MONDAY' },
    );
    expect(bad.status).toBe(422);
    const hourly = await postTimeOff(
      org,
      { userId, adminId, start: '2041-01-07 08:00:00', end: '2041-01-07 09:00:00', typeId: vacationId },
      { rrule: 'FREQ=HOURLY' },
    );
    expect(hourly).toBeInvalid(['The rrule must have a FREQ of DAILY, WEEKLY, MONTHLY or YEARLY.']);
  });

  it('refuses the rule parts assignments refuse: each occurrence keeps the start time of day', async () => {
    const byHour = await postTimeOff(
      org,
      { userId, adminId, start: '2041-01-07 08:00:00', end: '2041-01-07 09:00:00', typeId: vacationId },
      { rrule: 'FREQ=DAILY;BYHOUR=7,19' },
    );
    expect(byHour).toBeInvalid(["The rrule may not carry BYHOUR: every occurrence keeps the start's time of day."]);
  });
});

describe('approvedTimeOffs (schedule contract)', () => {
  it('returns every approved occurrence overlapping the range, with its type', async () => {
    const scheduleOrg = await server.newOrg();
    const person = await scheduleOrg.createUser();
    const type = (
      await scheduleOrg.post('/time_off_types', {
        label: 'Kelly Day',
        work_code: 'KD',
        primary_color: '#112233',
        secondary_color: '#FFFFFF',
        force_include: true,
      })
    ).body.id;
    const body = { user_id: person, admin_ids: [person], time_off_type_id: type };
    const approved = (
      await scheduleOrg.post('/time_offs', {
        ...body,
        start_date: '2042-05-01 07:00:00',
        end_date: '2042-05-02 07:00:00',
        status: 1,
        rrule: 'FREQ=DAILY;INTERVAL=3',
      })
    ).body.id;
    await scheduleOrg.post('/time_offs', {
      ...body,
      start_date: '2042-05-02 07:00:00',
      end_date: '2042-05-03 07:00:00',
    });
    const items = await approvedTimeOffs(
      server.app.db,
      scheduleOrg.orgId,
      '2042-05-02 00:00:00',
      '2042-05-08 00:00:00',
    );
    const typeRef = {
      id: type,
      name: 'Kelly Day',
      work_code: 'KD',
      color: '#112233',
      text_color: '#FFFFFF',
      force_include: true,
      default_day_hours: 24,
      counts_as_worked: false,
      callback_exclusion_hours: 0,
      masked: false,
      public_name: null,
    };
    const item = (start: string, end: string) => ({
      id: approved,
      user_id: person,
      admin_id: person,
      start,
      end,
      written_end: end,
      status: 1,
      time_off_type: typeRef,
    });
    expect(items).toEqual([
      item('2042-05-01 07:00:00', '2042-05-02 07:00:00'),
      item('2042-05-04 07:00:00', '2042-05-05 07:00:00'),
      item('2042-05-07 07:00:00', '2042-05-08 07:00:00'),
    ]);
  });
});
