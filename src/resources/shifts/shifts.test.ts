import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAuthRequired, expectNotFoundForOtherOrg } from '../../../test/helpers/common.js';
import { startWithOrgs, type TestOrg, type TestServer } from '../../../test/helpers/server.js';
import {
  approvedTimeOff,
  createAssignment,
  createLabel,
  createQualifier,
  createRotation,
  placeOnRotation,
  workTypeId,
} from '../rotations/test-fixtures.js';

let server: TestServer;
let org: TestOrg;
let other: TestOrg;
let assignmentId: number;
let regularTime: number;
let adminId: number;
let userId: number;
let labelId: number;
let label2Id: number;
let qualifierId: number;

beforeAll(async () => {
  ({ server, org, other } = await startWithOrgs());
  assignmentId = await createAssignment(org, { name: 'Engine 1' });
  regularTime = await workTypeId(org);
  adminId = await org.createUser({ first_name: 'Hass', last_name: 'Brycen' });
  userId = await org.createUser({ first_name: 'Boss', last_name: 'Doe' });
  labelId = await createLabel(org, 'A Shift');
  label2Id = await createLabel(org, 'ENG');
  qualifierId = await createQualifier(org, 'Firefighters', 'FF-01');
});
afterAll(() => server.close());

const ref = (id: number, name: string) => ({ id, name, href: `${server.url}/v1/users/${id}` });
const ISO = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/);

let day = 0;
/** A fresh date per test so shifts never overlap one another by accident. */
function nextDate(): string {
  day += 2;
  const date = new Date(Date.UTC(2027, 5, 1 + day));
  return date.toISOString().slice(0, 10);
}

function shiftBody(date: string, overrides: Record<string, unknown> = {}) {
  return {
    assignment_id: assignmentId,
    user_id: userId,
    date,
    start: `${date} 07:00:00`,
    end: `${date} 19:00:00`,
    work_type_id: regularTime,
    ...overrides,
  };
}

async function newShift(overrides: Record<string, unknown> = {}): Promise<{ id: number; date: string }> {
  const date = nextDate();
  const response = await org.post('/shifts', shiftBody(date, overrides));
  expect(response.status, response.text).toBe(201);
  return { id: response.body.id, date };
}

describe('POST /shifts', () => {
  it('creates a one-off shift and answers it', async () => {
    const date = nextDate();
    const response = await org.post(
      '/shifts',
      shiftBody(date, { labels: [labelId], qualifiers: [qualifierId], notes: 'Covering', admin_id: adminId }),
    );
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      id: expect.any(Number),
      assignment_id: assignmentId,
      date,
      start: `${date} 07:00:00`,
      end: `${date} 19:00:00`,
      user: ref(userId, 'Boss Doe'),
      scheduled_by: ref(adminId, 'Hass Brycen'),
      work_type: {
        id: regularTime,
        href: `${server.url}/v1/work_types/${regularTime}`,
        name: 'Regular Time',
        work_code: 'REG',
        subtype_id: null,
      },
      labels: [{ id: labelId, href: `${server.url}/v1/labels/${labelId}`, label: 'A Shift' }],
      qualifiers: [
        {
          id: qualifierId,
          href: `${server.url}/v1/qualifiers/${qualifierId}`,
          shortcode: 'FF-01',
          name: 'Firefighters',
        },
      ],
      traded_with: null,
      from_callback: null,
      notes: 'Covering',
      created_at: ISO,
      updated_at: ISO,
    });
    const log = await org.get('/logs');
    expect(log.body.data[0].event_description).toBe(
      `Hass Brycen scheduled a shift for Boss Doe, ${date} 07:00 to ${date} 19:00.`,
    );
  });

  it('answers exactly what GET /shifts/{id} reads back (the answer is built from what was written)', async () => {
    const tradedWith = await org.createUser({ first_name: 'Tess', last_name: 'Trade' });
    const [first, second, third] = [nextDate(), nextDate(), nextDate()];
    const bodies = [
      shiftBody(first, {
        labels: [label2Id, labelId],
        qualifiers: [qualifierId],
        admin_id: adminId,
        traded_with: tradedWith,
        hold_over: 2,
      }),
      shiftBody(second, { break_start: `${second} 12:00:00`, break_end: `${second} 12:30:00`, notes: null }),
      shiftBody(third, { start: `${third}T20:00:00`, end: `${nextDate()} 06:00:00`, admin_id: userId }),
    ];
    for (const body of bodies) {
      const created = await org.post('/shifts', body);
      expect(created.status, created.text).toBe(201);
      const read = await org.get(`/shifts/${created.body.id}`);
      expect(created.body).toEqual(read.body);
    }
  });

  it("refuses a deleted user, as the shift's user and as admin", async () => {
    const gone = await org.createUser({ first_name: 'Gone', last_name: 'Away' });
    expect((await org.del(`/users/${gone}`)).status).toBe(200);
    for (const [change, message] of [
      [{ user_id: gone }, 'The selected user id is invalid.'],
      [{ admin_id: gone }, 'The selected admin id is invalid.'],
    ] as const) {
      const response = await org.post('/shifts', shiftBody(nextDate(), change));
      expect(response.body).toEqual({ status: 422, error: 'invalid_params', error_message: [message] });
    }
  });

  it('writes null labels and qualifiers when the shift has none', async () => {
    const { id } = await newShift();
    const response = await org.get(`/shifts/${id}`);
    expect(response.body).toMatchObject({ labels: null, qualifiers: null, scheduled_by: null });
  });

  it('takes null labels and qualifiers, as it writes them, for none', async () => {
    const date = nextDate();
    const created = await org.post('/shifts', shiftBody(date, { labels: null, qualifiers: null }));
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ labels: null, qualifiers: null });
  });

  it('requires the documented fields', async () => {
    const response = await org.post('/shifts', { user_id: userId });
    expect(response.status).toBe(422);
    expect(response.body.error).toBe('invalid_params');
    expect(response.body).toEqual({
      status: 422,
      error: 'invalid_params',
      error_message: [
        'The assignment id field is required.',
        'The date field is required.',
        'The start field is required.',
        'The end field is required.',
        'The work type id field is required.',
      ],
    });
  });

  it('requires the end after the start', async () => {
    const date = nextDate();
    const response = await org.post('/shifts', shiftBody(date, { end: `${date} 06:00:00` }));
    expect(response).toBeInvalid(['The end must be after the start.']);
  });

  it('rejects ids that do not exist in the organization', async () => {
    const foreignAssignment = await createAssignment(other);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ assignment_id: 999999 }, 'The selected assignment id is invalid.'],
      [{ assignment_id: foreignAssignment }, 'The selected assignment id is invalid.'],
      [{ user_id: 999999 }, 'The selected user id is invalid.'],
      [{ work_type_id: 999999 }, 'The selected work type id is invalid.'],
      [{ work_subtype_id: 999999 }, 'The selected work subtype id is invalid.'],
      [{ labels: [999999] }, 'The selected label id is invalid.'],
      [{ qualifiers: [999999] }, 'The selected qualifier id is invalid.'],
      [{ traded_with: 999999 }, 'The selected traded with is invalid.'],
      [{ from_callback: 999999 }, 'The selected from callback is invalid.'],
    ];
    for (const [change, message] of cases) {
      const response = await org.post('/shifts', shiftBody(nextDate(), change));
      expect(response.status, message).toBe(422);
      expect(response.body).toEqual({ status: 422, error: 'invalid_params', error_message: [message] });
    }
  });

  it('refuses to double-book a user', async () => {
    const { date } = await newShift();
    const response = await org.post('/shifts', shiftBody(date, { start: `${date} 18:00:00`, end: `${date} 23:00:00` }));
    expect(response.status).toBe(422);
    expect(response.body.error_message).toEqual([
      `Boss Doe cannot take this shift: already working ${date} 07:00–19:00 on Engine 1.`,
    ]);
  });

  it('refuses a shift over a rotation occurrence of the user', async () => {
    const member = await org.createUser({ first_name: 'Rota', last_name: 'Member' });
    const rotationId = await createRotation(org);
    await placeOnRotation(org, { user_id: member, rotation_id: rotationId, assignment_id: assignmentId, crew: 'A' });
    const response = await org.post(
      '/shifts',
      shiftBody('2027-01-04', { user_id: member, start: '2027-01-04 12:00:00', end: '2027-01-04 16:00:00' }),
    );
    expect(response.status).toBe(422);
    expect(response.body.error_message).toEqual([
      'Rota Member cannot take this shift: already working 2027-01-04 07:00–07:00 on Engine 1.',
    ]);
  });

  it('refuses a shift over approved time off unless forced', async () => {
    const member = await org.createUser({ first_name: 'Away', last_name: 'Member' });
    const date = nextDate();
    await approvedTimeOff(org, member, adminId, `${date} 00:00:00`, `${date} 23:00:00`);
    const refused = await org.post('/shifts', shiftBody(date, { user_id: member }));
    expect(refused.status).toBe(422);
    expect(refused.body.error_message).toEqual([
      expect.stringMatching(
        new RegExp(`^Away Member cannot take this shift: on approved Vacation \\w+ ${date} 00:00–23:00\\.$`),
      ),
    ]);
    const forced = await org.post('/shifts', shiftBody(date, { user_id: member, force: true }));
    expect(forced.status).toBe(201);
  });

  it('names the time off, not the rotation occurrence it takes off, and lets force book the user', async () => {
    const member = await org.createUser({ first_name: 'Off', last_name: 'Duty' });
    const rotationId = await createRotation(org);
    await placeOnRotation(org, { user_id: member, rotation_id: rotationId, assignment_id: assignmentId, crew: 'A' });
    await approvedTimeOff(org, member, adminId, '2027-01-07 07:00:00', '2027-01-08 07:00:00');
    const overtime = shiftBody('2027-01-07', {
      user_id: member,
      start: '2027-01-07 12:00:00',
      end: '2027-01-07 16:00:00',
    });
    const refused = await org.post('/shifts', overtime);
    expect(refused.status).toBe(422);
    expect(refused.body.error_message).toEqual([
      expect.stringMatching(/^Off Duty cannot take this shift: on approved Vacation \w+ 2027-01-07 07:00–07:00\.$/),
    ]);
    const forced = await org.post('/shifts', { ...overtime, force: true });
    expect(forced.status, forced.text).toBe(201);
    const onDuty = await org.post('/shifts', {
      ...shiftBody('2027-01-10', { user_id: member, start: '2027-01-10 12:00:00', end: '2027-01-10 16:00:00' }),
      force: true,
    });
    expect(onDuty.status).toBe(422);
    expect(onDuty.body.error_message).toEqual([
      'Off Duty cannot take this shift: already working 2027-01-10 07:00–07:00 on Engine 1.',
    ]);
  });

  it('requires a token', async () => {
    await expectAuthRequired(server, 'POST', '/v1/shifts', shiftBody('2027-01-01'));
  });
});

describe('GET /shifts', () => {
  it('lists the one-off shifts of a user in start order', async () => {
    const member = await org.createUser({ first_name: 'Only', last_name: 'Shifts' });
    const later = await newShift({ user_id: member });
    const earlier = await org.post('/shifts', shiftBody('2027-05-01', { user_id: member }));
    const response = await org.get('/shifts', { query: { user_id: member } });
    expect(response.status).toBe(200);
    expect(response.body.map((s: { id: number }) => s.id)).toEqual([earlier.body.id, later.id]);
    expect(response.body[0]).toEqual(earlier.body);
  });

  it('requires user_id', async () => {
    const response = await org.get('/shifts');
    expect(response).toBeInvalid(['The user id parameter is required.']);
  });

  it("answers nothing for another organization's user", async () => {
    const response = await other.get('/shifts', { query: { user_id: userId } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual([]);
  });
});

describe('GET /shifts/{id}', () => {
  it("answers the shift, 404 when missing or another organization's", async () => {
    const { id, date } = await newShift();
    const response = await org.get(`/shifts/${id}`);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id, date, user: ref(userId, 'Boss Doe') });
    const missing = await org.get('/shifts/999999');
    expect(missing).toBeNotFound('Shift');
    await expectNotFoundForOtherOrg(other, 'GET', `/shifts/${id}`);
  });
});

describe('PATCH /shifts/{id}', () => {
  it('changes the shift as the sample does', async () => {
    const { id } = await newShift();
    const date = nextDate();
    const response = await org.patch(`/shifts/${id}`, {
      date,
      start: `${date} 08:00:00`,
      end: `${date} 20:00:00`,
      notes: 'Changed to AM shift',
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      id,
      date,
      start: `${date} 08:00:00`,
      end: `${date} 20:00:00`,
      notes: 'Changed to AM shift',
    });
  });

  it('always requires date, start and end', async () => {
    const { id } = await newShift();
    const response = await org.patch(`/shifts/${id}`, { notes: 'x' });
    expect(response.status).toBe(422);
    expect(response.body.error_message).toEqual([
      'The date field is required.',
      'The start field is required.',
      'The end field is required.',
    ]);
    const date = nextDate();
    for (const [missing, body] of [
      ['start', { date, end: `${date} 19:00:00` }],
      ['end', { date, start: `${date} 07:00:00` }],
    ] as const) {
      const partial = await org.patch(`/shifts/${id}`, body);
      expect(partial.body).toEqual({
        status: 422,
        error: 'invalid_params',
        error_message: [`The ${missing} field is required.`],
      });
    }
  });

  it('replaces labels and qualifiers given in the body and keeps the rest', async () => {
    const { id, date } = await newShift({ labels: [labelId], notes: 'Keep me' });
    const response = await org.patch(`/shifts/${id}`, {
      date,
      start: `${date} 07:00:00`,
      end: `${date} 19:00:00`,
      labels: [label2Id],
      qualifiers: [qualifierId],
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      notes: 'Keep me',
      labels: [{ id: label2Id, href: `${server.url}/v1/labels/${label2Id}`, label: 'ENG' }],
      qualifiers: [
        {
          id: qualifierId,
          href: `${server.url}/v1/qualifiers/${qualifierId}`,
          shortcode: 'FF-01',
          name: 'Firefighters',
        },
      ],
    });
    const cleared = await org.patch(`/shifts/${id}`, {
      date,
      start: `${date} 07:00:00`,
      end: `${date} 19:00:00`,
      labels: null,
      qualifiers: null,
    });
    expect(cleared.status).toBe(200);
    expect(cleared.body).toMatchObject({ notes: 'Keep me', labels: null, qualifiers: null });
  });

  it('does not count the shift itself as a double booking', async () => {
    const { id, date } = await newShift();
    const response = await org.patch(`/shifts/${id}`, { date, start: `${date} 06:00:00`, end: `${date} 19:00:00` });
    expect(response.status).toBe(200);
  });

  it('answers 404 for another organization', async () => {
    const { id, date } = await newShift();
    await expectNotFoundForOtherOrg(other, 'PATCH', `/shifts/${id}`, {
      date,
      start: `${date} 06:00:00`,
      end: `${date} 19:00:00`,
    });
  });
});

describe('DELETE /shifts/{id}', () => {
  it('removes the shift', async () => {
    const { id } = await newShift({ labels: [labelId] });
    await expectNotFoundForOtherOrg(other, 'DELETE', `/shifts/${id}`);
    const response = await org.del(`/shifts/${id}`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, code: 200, status: 'ok', message: 'Shift deleted successfully.' });
    expect((await org.get(`/shifts/${id}`)).status).toBe(404);
  });
});

describe('shift labels', () => {
  const labelItem = (id: number, label: string) => ({ id, href: `${server.url}/v1/labels/${id}`, label });

  it('GET lists, POST replaces, DELETE one removes one, DELETE removes all', async () => {
    const { id } = await newShift({ labels: [labelId] });
    expect((await org.get(`/shifts/${id}/labels`)).body).toEqual([labelItem(labelId, 'A Shift')]);
    const replaced = await org.post(`/shifts/${id}/labels`, [labelId, label2Id]);
    expect(replaced.status).toBe(200);
    expect(replaced.body).toEqual([labelItem(labelId, 'A Shift'), labelItem(label2Id, 'ENG')]);
    const removedOne = await org.del(`/shifts/${id}/labels/${labelId}`);
    expect(removedOne.status).toBe(200);
    expect(removedOne.body).toEqual([labelItem(label2Id, 'ENG')]);
    const removedAll = await org.del(`/shifts/${id}/labels`);
    expect(removedAll.status).toBe(200);
    expect(removedAll.body).toEqual([]);
    expect((await org.get(`/shifts/${id}`)).body.labels).toBeNull();
  });

  it('rejects unknown labels and unknown shifts', async () => {
    const { id } = await newShift();
    const invalid = await org.post(`/shifts/${id}/labels`, [999999]);
    expect(invalid.status).toBe(422);
    expect(invalid.body.error_message).toEqual(['The selected label id is invalid.']);
    const notCarried = await org.del(`/shifts/${id}/labels/${labelId}`);
    expect(notCarried.body).toEqual({
      status: 404,
      error: 'not found',
      error_message: 'No query results for model [Label].',
    });
    await expectNotFoundForOtherOrg(other, 'GET', `/shifts/${id}/labels`);
    await expectNotFoundForOtherOrg(other, 'POST', `/shifts/${id}/labels`, []);
  });
});

describe('shift qualifiers', () => {
  it('GET lists, POST replaces, DELETE one and DELETE all remove', async () => {
    const { id } = await newShift();
    expect((await org.get(`/shifts/${id}/qualifiers`)).body).toEqual([]);
    const item = {
      id: qualifierId,
      href: `${server.url}/v1/qualifiers/${qualifierId}`,
      shortcode: 'FF-01',
      name: 'Firefighters',
    };
    const replaced = await org.post(`/shifts/${id}/qualifiers`, [qualifierId]);
    expect(replaced.status).toBe(200);
    expect(replaced.body).toEqual([item]);
    expect((await org.del(`/shifts/${id}/qualifiers/${qualifierId}`)).body).toEqual([]);
    await org.post(`/shifts/${id}/qualifiers`, [qualifierId]);
    expect((await org.del(`/shifts/${id}/qualifiers`)).body).toEqual([]);
    const invalid = await org.post(`/shifts/${id}/qualifiers`, [999999]);
    expect(invalid.body.error_message).toEqual(['The selected qualifier id is invalid.']);
    await expectNotFoundForOtherOrg(other, 'DELETE', `/shifts/${id}/qualifiers`);
  });
});
