import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAuthRequired, expectNotFoundForOtherOrg } from '../../../test/helpers/common.js';
import { startServer, type TestOrg, type TestServer } from '../../../test/helpers/server.js';
import {
  approvedTimeOff,
  createAssignment,
  createLabel,
  createRotation,
  placeOnRotation,
  workTypeId,
} from '../rotations/test-fixtures.js';
import { createShift } from '../shifts/test-fixtures.js';

let server: TestServer;
let org: TestOrg;
let other: TestOrg;
let engineId: number;
let crewA: number;
let crewB: number;
let labelShiftId: number;

const period = { start: '2027-01-01 00:00:00', end: '2027-01-08 00:00:00' };

beforeAll(async () => {
  server = await startServer();
  org = await server.newOrg({ timezone: 'America/Chicago' });
  other = await server.newOrg();
  engineId = await createAssignment(org, { name: 'Engine 1' });
  const trainingId = await createAssignment(org, {
    name: 'Training',
    start: '2027-01-01 08:00:00',
    end: '2027-01-01 12:00:00',
    is_work_shift: false,
  });
  const admin = await org.createUser({ first_name: 'Pay', last_name: 'Master' });
  crewA = await org.createUser({ first_name: 'David', last_name: 'Smith', employee_id: '417' });
  crewB = await org.createUser({ first_name: 'Ann', last_name: 'Jones', employee_id: '418' });
  const rotationId = await createRotation(org);
  await placeOnRotation(org, {
    user_id: crewA,
    rotation_id: rotationId,
    assignment_id: engineId,
    crew: 'A',
    break_start: '12:00',
    break_length: 0.5,
  });
  await placeOnRotation(org, {
    user_id: crewB,
    rotation_id: rotationId,
    assignment_id: engineId,
    crew: 'B',
    end_date: '2027-01-02',
  });
  await approvedTimeOff(org, crewA, admin, '2027-01-04 07:00:00', '2027-01-05 07:00:00');
  const labelId = await createLabel(org, 'CPT');
  const regular = await workTypeId(org);
  const overtime = await workTypeId(org, 'Overtime');
  const shift = await createShift(org, engineId, crewB, '2027-01-03 08:00:00', '2027-01-03 18:00:00', {
    work_type_id: overtime,
    labels: [labelId],
    notes: 'Worked as captain',
  });
  labelShiftId = shift.body.id;
  await createShift(org, trainingId, crewB, '2027-01-05 08:00:00', '2027-01-05 12:00:00', { work_type_id: regular });
  const misc = await org.post('/misc_hours', {
    user_id: crewA,
    date: '2027-01-06',
    work_type_id: regular,
    length: 4,
    notes: 'Station cleanup',
  });
  expect(misc.status, misc.text).toBe(201);
});
afterAll(() => server.close());

const workRow = (overrides: Record<string, unknown>) => ({
  type: 'work shift',
  user_id: String(crewA),
  employee_id: '417',
  name: 'David Smith',
  work_type: 'Regular Time',
  work_subtype: null,
  work_code: 'REG',
  assignment_id: engineId,
  assignment_name: 'Engine 1',
  labels: null,
  notes: null,
  ...overrides,
});

describe('GET /payroll', () => {
  it('answers worked shifts less breaks and time off, time off rows, and leaves out non-work assignments', async () => {
    const response = await org.get('/payroll', { query: period });
    expect(response).toAnswer(200, [
      workRow({ start: '2027-01-01 07:00:00', end: '2027-01-02 07:00:00', total_hours: 23.5 }),
      workRow({
        user_id: String(crewB),
        employee_id: '418',
        name: 'Ann Jones',
        start: '2027-01-02 07:00:00',
        end: '2027-01-03 07:00:00',
        total_hours: 24,
      }),
      workRow({
        user_id: String(crewB),
        employee_id: '418',
        name: 'Ann Jones',
        work_type: 'Overtime',
        work_code: 'OT',
        start: '2027-01-03 08:00:00',
        end: '2027-01-03 18:00:00',
        labels: 'CPT',
        notes: 'Worked as captain',
        total_hours: 10,
      }),
      {
        type: 'time off',
        user_id: String(crewA),
        employee_id: '417',
        name: 'David Smith',
        work_type: expect.stringMatching(/^Vacation/),
        work_subtype: null,
        work_code: 'VAC',
        start: '2027-01-04 07:00:00',
        end: '2027-01-05 07:00:00',
        assignment_id: null,
        assignment_name: null,
        labels: null,
        notes: null,
        total_hours: 24,
      },
      {
        type: 'misc',
        user_id: String(crewA),
        employee_id: '417',
        name: 'David Smith',
        work_type: 'Regular Time',
        work_subtype: null,
        work_code: 'REG',
        start: '2027-01-06 00:00:00',
        end: null,
        assignment_id: null,
        assignment_name: null,
        labels: null,
        notes: 'Station cleanup',
        total_hours: 4,
      },
      workRow({ start: '2027-01-07 07:00:00', end: '2027-01-08 07:00:00', total_hours: 23.5 }),
    ]);
    expect(labelShiftId).toBeGreaterThan(0);
  });

  it('takes partial time off off the worked hours', async () => {
    const member = await org.createUser();
    const admin = await org.createUser();
    await placeOnRotation(org, {
      user_id: member,
      rotation_id: await createRotation(org),
      assignment_id: engineId,
      crew: 'C',
      break_start: '12:00',
      break_length: 0.5,
    });
    await approvedTimeOff(org, member, admin, '2027-01-03 07:00:00', '2027-01-03 11:00:00');
    const response = await org.get('/payroll', {
      query: { start: '2027-01-03 00:00:00', end: '2027-01-04 00:00:00', user_id: member },
    });
    expect(response.status).toBe(200);
    expect(
      response.body.map((row: { type: string; start: string; total_hours: number }) => [
        row.type,
        row.start,
        row.total_hours,
      ]),
    ).toEqual([
      ['time off', '2027-01-03 07:00:00', 4],
      ['work shift', '2027-01-03 11:00:00', 19.5],
    ]);
  });

  it('keeps one user with user_id', async () => {
    const response = await org.get('/payroll', { query: { ...period, user_id: crewB } });
    expect(response.status).toBe(200);
    expect(response.body.map((row: { start: string }) => row.start)).toEqual([
      '2027-01-02 07:00:00',
      '2027-01-03 08:00:00',
    ]);
  });

  it('requires start and end, a valid user and the end after the start', async () => {
    const missing = await org.get('/payroll', { query: { start: period.start } });
    expect(missing).toBeInvalid(['The end parameter is required.']);
    const reversed = await org.get('/payroll', { query: { start: period.end, end: period.start } });
    expect(reversed).toBeInvalid(['The end must be after the start.']);
    const unknown = await org.get('/payroll', { query: { ...period, user_id: 999999 } });
    expect(unknown).toBeInvalid(['The selected user id is invalid.']);
  });

  it('shows nothing of another organization', async () => {
    const response = await other.get('/payroll', { query: period });
    expect(response).toAnswer(200, []);
  });

  it('requires a token', async () => {
    await expectAuthRequired(server, 'GET', '/v1/payroll?start=2027-01-01%2000:00:00&end=2027-01-08%2000:00:00');
  });
});

describe('GET /payroll/{user_id}', () => {
  it('answers the rows of the user', async () => {
    const response = await org.get(`/payroll/${crewA}`, { query: period });
    expect(response.status).toBe(200);
    expect(response.body.map((row: { type: string; total_hours: number }) => [row.type, row.total_hours])).toEqual([
      ['work shift', 23.5],
      ['time off', 24],
      ['misc', 4],
      ['work shift', 23.5],
    ]);
  });

  it("answers 404 for an unknown user or another organization's", async () => {
    const response = await org.get('/payroll/999999', { query: period });
    expect(response).toBeNotFound('User');
    await expectNotFoundForOtherOrg(
      other,
      'GET',
      `/payroll/${crewA}?start=2027-01-01%2000:00:00&end=2027-01-08%2000:00:00`,
    );
  });
});
