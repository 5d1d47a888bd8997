import { describe, expect, it } from 'vitest';
import { expectAuthRequired, expectNotFoundForOtherOrg } from '../../../test/helpers/common.js';
import { useOrgs } from '../../../test/helpers/server.js';
import { createAssignment, createRotation, placeOnRotation, workTypeId } from './test-fixtures.js';
import { createShift } from '../shifts/test-fixtures.js';

const { server, org, other } = await useOrgs();
const stationId: number = await createAssignment(org, { name: 'Station 1' });
const station2Id: number = await createAssignment(org, { name: 'Station 2' });
const regularTime: number = await workTypeId(org);
const adminId = await org.createUser({ first_name: 'Joe', last_name: 'Boss' });
const userId = await org.createUser({ first_name: 'John', last_name: 'Doe' });

const userRef = (id: number, name: string) => ({ id, name, href: `${server.url}/v1/users/${id}` });

/** The days a user works between two dates, from GET /schedule. */
/** A new user placed on a new rotation at Station 1: the user and the recurring shift's id. */
async function placedMember() {
  const rotationId = await createRotation(org);
  const member = await org.createUser();
  const id = await placeOnRotation(org, { user_id: member, rotation_id: rotationId, assignment_id: stationId });
  return { member, id };
}

async function workedDays(start: string, end: string, user: number) {
  const response = await org.get('/schedule', { query: { start: `${start} 00:00:00`, end: `${end} 00:00:00` } });
  expect(response.status).toBe(200);
  return (
    response.body.days as Array<{
      date: string;
      assignments: Array<{ id: number; shifts: Array<{ user: { id: number }; start: string; end: string }> }>;
    }>
  ).flatMap((day) =>
    day.assignments.flatMap((a) =>
      a.shifts
        .filter((s) => s.user.id === user)
        .map((s) => ({ date: day.date, assignment: a.id, start: s.start, end: s.end })),
    ),
  );
}

describe('POST /rotations', () => {
  it('creates a rotation from a preset, with its crews and cycle length', async () => {
    const response = await org.post('/rotations', {
      name: 'Kelly 24/48',
      anchor_date: '2027-01-01',
      preset: '24/48-kelly',
    });
    expect(response).toAnswer(201, {
      id: expect.any(Number),
      href: `${server.url}/v1/rotations/${response.body.id}`,
      name: 'Kelly 24/48',
      anchor_date: '2027-01-01',
      pattern: [1, 0, 0],
      crews: { A: 0, B: 1, C: 2 },
      kelly_every: 7,
      kelly_code: 'KD',
      kelly_name: 'Kelly day',
      cycle_days: 21,
    });
  });

  it('creates a compound rotation from a pattern', async () => {
    const response = await org.post('/rotations', {
      name: 'Alternating',
      anchor_date: '2027-01-01',
      pattern: [1, 0, 0, 2, 0, 0],
    });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ pattern: [1, 0, 0, 2, 0, 0], crews: {}, kelly_every: null, cycle_days: 6 });
  });

  it('requires a pattern or a preset', async () => {
    const response = await org.post('/rotations', { name: 'Empty', anchor_date: '2027-01-01' });
    expect(response).toBeInvalid(['The pattern field is required when preset is not present.']);
  });

  it('rejects a pattern without an on-duty day and an unknown preset', async () => {
    const empty = await org.post('/rotations', { name: 'Off', anchor_date: '2027-01-01', pattern: [0, 0] });
    expect(empty.status).toBe(422);
    expect(empty.body.error_message).toEqual(['The pattern must have at least one on-duty day.']);
    const unknown = await org.post('/rotations', { name: 'X', anchor_date: '2027-01-01', preset: '12/12' });
    expect(unknown.status).toBe(422);
  });

  it('requires a token', async () => {
    await expectAuthRequired(server, 'POST', '/v1/rotations', {
      name: 'x',
      anchor_date: '2027-01-01',
      preset: '24/48',
    });
  });
});

describe('GET /rotations/{id}', () => {
  it('answers the rotation, and 404 for another organization', async () => {
    const id = await createRotation(org);
    const response = await org.get(`/rotations/${id}`);
    expect(response).toAnswer(200, {
      id,
      href: `${server.url}/v1/rotations/${id}`,
      name: '24/48',
      anchor_date: '2027-01-01',
      pattern: [1, 0, 0],
      crews: { A: 0, B: 1, C: 2 },
      kelly_every: null,
      kelly_code: 'KD',
      kelly_name: 'Kelly day',
      cycle_days: 3,
    });
    await expectNotFoundForOtherOrg(other, 'GET', `/rotations/${id}`);
    const missing = await org.get('/rotations/999999');
    expect(missing).toBeNotFound('Rotation');
  });
});

describe('GET /rotations', () => {
  it("lists the organization's rotations only", async () => {
    const response = await other.get('/rotations');
    expect(response).toAnswer(200, []);
    const mine = await org.get('/rotations');
    expect(mine.body.length).toBeGreaterThan(0);
  });
});

describe('PATCH /rotations/{id}', () => {
  it('renames a rotation', async () => {
    const id = await createRotation(org);
    const response = await org.patch(`/rotations/${id}`, { name: 'Shift rotation' });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id, name: 'Shift rotation', pattern: [1, 0, 0] });
  });

  it('is partial: a body without name is a no-op answering the rotation unchanged, and is logged', async () => {
    const id = await createRotation(org);
    const before = await org.get(`/rotations/${id}`);
    for (const body of [{}, { pattern: [1, 1, 0], anchor_date: '2030-01-01', organization_id: other.orgId }]) {
      const response = await org.patch(`/rotations/${id}`, body);
      expect(response).toAnswer(200, before.body);
    }
    expect((await org.get(`/rotations/${id}`)).body).toEqual(before.body);
    const log = await org.get('/logs', { query: { limit: 1 } });
    expect(log.body.data[0].event_description).toBe(
      `API client ${org.clientId} updated rotation ${before.body.name}: no fields.`,
    );
    const empty = await org.patch(`/rotations/${id}`, { name: '' });
    expect(empty.status).toBe(422);
  });
});

describe('Kelly day code and name', () => {
  it('are set on creation and changed by PATCH', async () => {
    const created = await org.post('/rotations', {
      name: 'Kelly',
      anchor_date: '2027-01-01',
      preset: '24/48-kelly',
      kelly_code: 'K',
      kelly_name: 'Kelly shift',
    });
    expect(created.body).toMatchObject({ kelly_code: 'K', kelly_name: 'Kelly shift' });
    const changed = await org.patch(`/rotations/${created.body.id}`, { kelly_name: 'Kelly off' });
    expect(changed.body).toMatchObject({ name: 'Kelly', kelly_code: 'K', kelly_name: 'Kelly off' });
    expect((await org.patch(`/rotations/${created.body.id}`, { kelly_code: '' })).status).toBe(422);
  });
});

describe('DELETE /rotations/{id}', () => {
  it('deletes an unused rotation', async () => {
    const id = await createRotation(org);
    const response = await org.del(`/rotations/${id}`);
    expect(response).toSucceed(200, 'Rotation deleted successfully.');
    expect((await org.get(`/rotations/${id}`)).status).toBe(404);
  });

  it('refuses a rotation with scheduled members', async () => {
    const id = await createRotation(org);
    const member = await org.createUser();
    await placeOnRotation(org, { user_id: member, rotation_id: id, assignment_id: stationId, crew: 'A' });
    const response = await org.del(`/rotations/${id}`);
    expect(response.status).toBe(422);
    expect(response.body.error_message).toEqual([
      'The rotation still has scheduled members: end their recurring shifts first.',
    ]);
  });
});

describe('POST /recurring_shifts', () => {
  it('places a user on an assignment following a rotation', async () => {
    const rotationId = await createRotation(org);
    const response = await org.post('/recurring_shifts', {
      user_id: userId,
      rotation_id: rotationId,
      assignment_id: stationId,
      crew: 'B',
      start_date: '2027-01-01',
      break_start: '12:00',
      break_length: 0.5,
      admin_id: adminId,
    });
    expect(response).toAnswer(201, {
      id: expect.any(Number),
      href: `${server.url}/v1/recurring_shifts/${response.body.id}`,
      user: userRef(userId, 'John Doe'),
      rotation: { id: rotationId, name: '24/48' },
      assignment_ids: [stationId],
      crew_offset: 1,
      kelly_offset: 0,
      start_date: '2027-01-01',
      end_date: null,
      work_type_id: regularTime,
      work_subtype_id: null,
      break_start: '12:00:00',
      break_length: 0.5,
      notes: null,
      scheduled_by: userRef(adminId, 'Joe Boss'),
      previous_id: null,
      exceptions: [],
    });
    const days = await workedDays('2027-01-01', '2027-01-08', userId);
    expect(days.map((d) => d.date)).toEqual(['2027-01-02', '2027-01-05']);
    expect(days[0]).toEqual({
      date: '2027-01-02',
      assignment: stationId,
      start: '2027-01-02 07:00:00',
      end: '2027-01-03 07:00:00',
    });
    const log = await org.get('/logs');
    expect(log.body.data[0].event_description).toBe('Joe Boss placed John Doe on rotation 24/48 from 2027-01-01.');
  });

  it('rejects unknown users, rotations, assignments and crews', async () => {
    const rotationId = await createRotation(org);
    const base = { user_id: userId, rotation_id: rotationId, assignment_id: stationId, start_date: '2027-01-01' };
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ user_id: 999999 }, 'The selected user id is invalid.'],
      [{ rotation_id: 999999 }, 'The selected rotation id is invalid.'],
      [{ assignment_id: 999999 }, 'The selected assignment id is invalid.'],
      [{ crew: 'Z' }, 'The selected crew is invalid.'],
      [{ work_type_id: 999999 }, 'The selected work type id is invalid.'],
      [{ end_date: '2026-12-01' }, 'The end date must be after the start date.'],
    ];
    for (const [change, message] of cases) {
      const response = await org.post('/recurring_shifts', { ...base, ...change });
      expect(response.status, message).toBe(422);
      expect(response).toBeInvalid([message]);
    }
    const foreignAssignment = await org.post('/recurring_shifts', {
      ...base,
      assignment_id: await createAssignment(other),
    });
    expect(foreignAssignment.status).toBe(422);
  });

  it('links several assignments in a compound rotation', async () => {
    const rotationId = await createRotation(org, {
      name: 'Alternating',
      preset: undefined,
      pattern: [1, 0, 0, 2, 0, 0],
    });
    const member = await org.createUser();
    await placeOnRotation(org, { user_id: member, rotation_id: rotationId, assignment_ids: [stationId, station2Id] });
    const days = await workedDays('2027-01-01', '2027-01-10', member);
    expect(days.map((d) => [d.date, d.assignment])).toEqual([
      ['2027-01-01', stationId],
      ['2027-01-04', station2Id],
      ['2027-01-07', stationId],
    ]);
    const tooFew = await org.post('/recurring_shifts', {
      user_id: member,
      rotation_id: rotationId,
      assignment_id: stationId,
      start_date: '2027-01-01',
    });
    expect(tooFew.body.error_message).toEqual(['The rotation needs 2 assignment ids.']);
  });

  it('skips Kelly days', async () => {
    const rotationId = await createRotation(org, { preset: '24/48-kelly' });
    const member = await org.createUser();
    await placeOnRotation(org, { user_id: member, rotation_id: rotationId, assignment_id: station2Id, crew: 'A' });
    const days = await workedDays('2027-01-01', '2027-01-22', member);
    expect(days.map((d) => d.date)).toEqual([
      '2027-01-01',
      '2027-01-04',
      '2027-01-07',
      '2027-01-10',
      '2027-01-13',
      '2027-01-16',
    ]);
  });
});

describe('double booking (POST/PATCH /recurring_shifts, moved occurrences)', () => {
  /** Station 1 and Station 2 both run 07:00 to 07:00; crew A works 2027-01-01, -04, -07, …; crew B the days after. */
  async function crewAMember() {
    const rotationId = await createRotation(org);
    const member = await org.createUser({ first_name: 'Double', last_name: 'Booked' });
    const firstId = await placeOnRotation(org, {
      user_id: member,
      rotation_id: rotationId,
      assignment_id: stationId,
      crew: 'A',
    });
    return { rotationId, member, firstId };
  }

  const seriesOf = async (member: number) =>
    ((await org.get('/recurring_shifts', { query: { user_id: member } })).body as Array<{ id: number }>).map(
      (s) => s.id,
    );

  it("refuses a second series whose occurrences overlap the user's rotation, and keeps nothing of it", async () => {
    const { rotationId, member, firstId } = await crewAMember();
    const logsBefore = (await org.get('/logs')).body.data[0].id;
    const response = await org.post('/recurring_shifts', {
      user_id: member,
      rotation_id: rotationId,
      assignment_id: station2Id,
      crew: 'A',
      start_date: '2027-01-04',
    });
    expect(response).toBeInvalid([
      'Double Booked cannot take this series: already working 2027-01-04 07:00–07:00 on Station 1.',
    ]);
    expect(await seriesOf(member)).toEqual([firstId]);
    expect((await org.get('/logs')).body.data[0].id).toBe(logsBefore);
  });

  it('accepts back-to-back work: crew B starts when crew A ends', async () => {
    const { rotationId, member, firstId } = await crewAMember();
    const response = await org.post('/recurring_shifts', {
      user_id: member,
      rotation_id: rotationId,
      assignment_id: station2Id,
      crew: 'B',
      start_date: '2027-01-01',
    });
    expect(response.status, response.text).toBe(201);
    expect(await seriesOf(member)).toEqual([firstId, response.body.id]);
    expect(
      (await workedDays('2027-01-01', '2027-01-03', member)).map((d) => [d.date, d.assignment, d.start, d.end]),
    ).toEqual([
      ['2027-01-01', stationId, '2027-01-01 07:00:00', '2027-01-02 07:00:00'],
      ['2027-01-02', station2Id, '2027-01-02 07:00:00', '2027-01-03 07:00:00'],
    ]);
  });

  it("refuses a series over one of the user's one-off shifts, months after its start", async () => {
    const rotationId = await createRotation(org);
    const member = await org.createUser({ first_name: 'Shift', last_name: 'Holder' });
    await createShift(org, station2Id, member, '2027-06-02 10:00:00', '2027-06-02 18:00:00', {
      work_type_id: regularTime,
    });
    // 2027-06-02 is day 152 after the anchor 2027-01-01, and 152 mod 3 = 2: crew C works 07:00 to 07:00 that day
    const onC = await org.post('/recurring_shifts', {
      user_id: member,
      rotation_id: rotationId,
      assignment_id: stationId,
      crew: 'C',
      start_date: '2027-01-01',
    });
    expect(onC.status).toBe(422);
    expect(onC.body.error_message).toEqual([
      'Shift Holder cannot take this series: already working 2027-06-02 10:00–18:00 on Station 2.',
    ]);
    const ending = await org.post('/recurring_shifts', {
      user_id: member,
      rotation_id: rotationId,
      assignment_id: stationId,
      crew: 'C',
      start_date: '2027-01-01',
      end_date: '2027-06-01',
    });
    expect(ending.status, ending.text).toBe(201);
  });

  it('refuses a "this and following" change that lands on the user\'s other series, and changes nothing', async () => {
    const { rotationId, member, firstId } = await crewAMember();
    const second = await placeOnRotation(org, {
      user_id: member,
      rotation_id: rotationId,
      assignment_id: station2Id,
      crew: 'B',
    });
    const response = await org.patch(`/recurring_shifts/${second}`, { effective_date: '2027-01-05', crew: 'A' });
    expect(response.status).toBe(422);
    expect(response.body.error_message).toEqual([
      'Double Booked cannot take this series: already working 2027-01-07 07:00–07:00 on Station 1.',
    ]);
    expect(await seriesOf(member)).toEqual([firstId, second]);
    expect((await org.get(`/recurring_shifts/${second}`)).body).toMatchObject({ end_date: null, crew_offset: 1 });
  });

  it('refuses moving an occurrence onto other work of the user', async () => {
    const { member, firstId } = await crewAMember();
    await createShift(org, station2Id, member, '2027-01-08 08:00:00', '2027-01-08 12:00:00', {
      work_type_id: regularTime,
    });
    const response = await org.post(`/recurring_shifts/${firstId}/exceptions`, {
      date: '2027-01-07',
      action: 'move',
      start: '2027-01-07 19:00:00',
      end: '2027-01-08 09:00:00',
    });
    expect(response.status).toBe(422);
    expect(response.body.error_message).toEqual([
      'Double Booked cannot take this occurrence: already working 2027-01-08 08:00–12:00 on Station 2.',
    ]);
    expect((await org.get(`/recurring_shifts/${firstId}`)).body.exceptions).toEqual([]);
  });
});

describe('GET /recurring_shifts', () => {
  it('lists the series of a user', async () => {
    const { member, id } = await placedMember();
    const response = await org.get('/recurring_shifts', { query: { user_id: member } });
    expect(response.status).toBe(200);
    expect(response.body.map((s: { id: number }) => s.id)).toEqual([id]);
    expect((await other.get('/recurring_shifts', { query: { user_id: member } })).body).toEqual([]);
    await expectNotFoundForOtherOrg(other, 'GET', `/recurring_shifts/${id}`);
  });
});

describe('PATCH /recurring_shifts/{id}', () => {
  it('ends the series and starts a new one from the effective date ("this and following")', async () => {
    const rotationId = await createRotation(org);
    const member = await org.createUser({ first_name: 'Series', last_name: 'Member' });
    const memberName = 'Series Member';
    const id = await placeOnRotation(org, {
      user_id: member,
      rotation_id: rotationId,
      assignment_id: stationId,
      crew: 'A',
    });
    const response = await org.patch(`/recurring_shifts/${id}`, {
      effective_date: '2027-01-05',
      crew: 'C',
      assignment_id: station2Id,
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      previous_id: id,
      start_date: '2027-01-05',
      end_date: null,
      crew_offset: 2,
      assignment_ids: [station2Id],
    });
    expect((await org.get(`/recurring_shifts/${id}`)).body).toMatchObject({
      start_date: '2027-01-01',
      end_date: '2027-01-04',
      crew_offset: 0,
    });
    const log = await org.get('/logs');
    expect(log.body.data[0].event_description).toBe(
      `API client ${org.clientId} changed the recurring shift ${id} of ${memberName} from 2027-01-05 on.`,
    );
    const days = await workedDays('2027-01-01', '2027-01-10', member);
    expect(days.map((d) => [d.date, d.assignment])).toEqual([
      ['2027-01-01', stationId],
      ['2027-01-04', stationId],
      ['2027-01-06', station2Id],
      ['2027-01-09', station2Id],
    ]);
  });

  it('never changes past occurrences', async () => {
    const { id } = await placedMember();
    const response = await org.patch(`/recurring_shifts/${id}`, { effective_date: '2020-01-01', crew: 'B' });
    expect(response.status).toBe(422);
    expect(response.body.error_message).toEqual([
      'The effective date must be today or later: past occurrences never change.',
    ]);
  });
});

describe('DELETE /recurring_shifts/{id}', () => {
  it('ends the series from the effective date', async () => {
    const { member, id } = await placedMember();
    const response = await org.del(`/recurring_shifts/${id}`, undefined, { query: { effective_date: '2027-01-05' } });
    expect(response).toSucceed(200, 'Recurring shift ended successfully.');
    expect((await workedDays('2027-01-01', '2027-01-10', member)).map((d) => d.date)).toEqual([
      '2027-01-01',
      '2027-01-04',
    ]);
  });

  it('removes a series that has not started yet', async () => {
    const { id } = await placedMember();
    expect(
      (await org.del(`/recurring_shifts/${id}`, undefined, { query: { effective_date: '2027-01-01' } })).status,
    ).toBe(200);
    expect((await org.get(`/recurring_shifts/${id}`)).status).toBe(404);
    await expectNotFoundForOtherOrg(other, 'DELETE', `/recurring_shifts/${id}`);
  });
});

/** A new member placed on a new rotation at the station, crew A: the member and the placement's id. */
async function memberOnNewRotation() {
  const rotationId = await createRotation(org);
  const member = await org.createUser();
  const id = await placeOnRotation(org, {
    user_id: member,
    rotation_id: rotationId,
    assignment_id: stationId,
    crew: 'A',
  });
  return { member, id };
}

describe('POST /recurring_shifts/{id}/exceptions', () => {
  it('removes one occurrence, moves another, and restores them', async () => {
    const { member, id } = await memberOnNewRotation();
    const removed = await org.post(`/recurring_shifts/${id}/exceptions`, {
      date: '2027-01-04',
      action: 'remove',
      reason: 'Trade',
    });
    expect(removed.status).toBe(201);
    expect(removed.body.exceptions).toEqual([
      { date: '2027-01-04', kind: 'removed', assignment_id: null, start: null, end: null, reason: 'Trade' },
    ]);
    const moved = await org.post(`/recurring_shifts/${id}/exceptions`, {
      date: '2027-01-07',
      action: 'move',
      start: '2027-01-07 09:00:00',
      end: '2027-01-07 21:00:00',
      assignment_id: station2Id,
    });
    expect(moved.status).toBe(201);
    expect(await workedDays('2027-01-01', '2027-01-08', member)).toEqual([
      { date: '2027-01-01', assignment: stationId, start: '2027-01-01 07:00:00', end: '2027-01-02 07:00:00' },
      { date: '2027-01-07', assignment: station2Id, start: '2027-01-07 09:00:00', end: '2027-01-07 21:00:00' },
    ]);
    const restored = await org.del(`/recurring_shifts/${id}/exceptions/2027-01-04`);
    expect(restored.status).toBe(200);
    expect(restored.body.exceptions).toHaveLength(1);
    expect((await workedDays('2027-01-04', '2027-01-05', member)).map((d) => d.date)).toEqual(['2027-01-04']);
  });

  it('rejects a date without an occurrence', async () => {
    const { id } = await memberOnNewRotation();
    const response = await org.post(`/recurring_shifts/${id}/exceptions`, { date: '2027-01-02', action: 'remove' });
    expect(response.status).toBe(422);
    expect(response.body.error_message).toEqual(['The recurring shift has no occurrence on that date.']);
    await expectNotFoundForOtherOrg(other, 'POST', `/recurring_shifts/${id}/exceptions`, {
      date: '2027-01-01',
      action: 'remove',
    });
  });
});
