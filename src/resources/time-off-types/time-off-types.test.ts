import { describe, expect, it } from 'vitest';
import { expectAuthRequired, expectNotFoundForOtherOrg } from '../../../test/helpers/common.js';
import { useOrgs } from '../../../test/helpers/server.js';
import { postTimeOff } from '../time-offs/test-fixtures.js';

const { server, org, other } = await useOrgs();

const sick = {
  label: 'Sick',
  work_code: 'SL',
  required_buffer: 0,
  instance_limit: 1,
  primary_color: '#2474a9',
  secondary_color: '#FFFFFF',
  force_include: true,
  forward: false,
};

describe('POST /time_off_types', () => {
  it('creates a type with all fields and answers 201 with its id', async () => {
    const response = await org.post('/time_off_types', sick);
    expect(response).toSucceed(201, 'Time off type created successfully.', {
      id: expect.any(Number),
    });
  });

  it('requires only a label and fills the documented defaults', async () => {
    const response = await org.post('/time_off_types', { label: 'Comp Time' });
    expect(response.status).toBe(201);
    const listed = (await org.get('/time_off_types')).body.find(
      (t: { id: string }) => t.id === String(response.body.id),
    );
    expect(listed).toEqual({
      id: String(response.body.id),
      label: 'Comp Time',
      work_code: null,
      required_buffer: '0.00',
      instance_limit: '0',
      primary_color: '#3f5647',
      secondary_color: '#FFFFFF',
      force_include: false,
      forward: false,
      href: `${server.url}/v1/time_off_types/${response.body.id}`,
      sick_leave: false,
      masked: false,
      public_name: 'Off',
    });
  });

  it('rejects a missing label, a bad color and a negative buffer', async () => {
    const missing = await org.post('/time_off_types', { work_code: 'X' });
    expect(missing).toBeInvalid(['The label field is required.']);
    expect((await org.post('/time_off_types', { label: 'X', primary_color: 'red' })).status).toBe(422);
    expect((await org.post('/time_off_types', { label: 'X', required_buffer: -1 })).status).toBe(422);
  });

  it('accepts numbers and flags sent as strings', async () => {
    const response = await org.post('/time_off_types', {
      label: 'Vacation',
      required_buffer: '12.5',
      instance_limit: '3',
      forward: 'true',
      force_include: 0,
    });
    expect(response.status).toBe(201);
    const detail = await org.get(`/time_off_types/${response.body.id}`);
    expect(detail.body).toMatchObject({
      required_buffer: '12.50',
      instance_limit: '3',
      forward: true,
      force_include: false,
    });
  });

  it('requires a token', async () => {
    await expectAuthRequired(server, 'POST', '/time_off_types', sick);
  });
});

describe('GET /time_off_types', () => {
  it('lists the non-deleted types of the organization with string ids', async () => {
    const fresh = await server.newOrg();
    const id = (await fresh.post('/time_off_types', sick)).body.id;
    const gone = (await fresh.post('/time_off_types', { label: 'Old' })).body.id;
    await fresh.del(`/time_off_types/${gone}`);
    const response = await fresh.get('/time_off_types');
    expect(response).toAnswer(200, [
      {
        id: String(id),
        label: 'Sick',
        work_code: 'SL',
        required_buffer: '0.00',
        instance_limit: '1',
        primary_color: '#2474a9',
        secondary_color: '#FFFFFF',
        force_include: true,
        forward: false,
        href: `${server.url}/v1/time_off_types/${id}`,
        sick_leave: false,
        masked: false,
        public_name: 'Off',
      },
    ]);
    expect((await other.get('/time_off_types')).body).toEqual([]);
  });

  it('requires a token', async () => {
    await expectAuthRequired(server, 'GET', '/time_off_types');
  });
});

describe('GET /time_off_types/{id} (extension)', () => {
  it('returns the type with allow_negative; 404 for another organization', async () => {
    const id = (await org.post('/time_off_types', { label: 'Banked', allow_negative: true })).body.id;
    const response = await org.get(`/time_off_types/${id}`);
    expect(response).toAnswer(200, {
      id: String(id),
      label: 'Banked',
      work_code: null,
      required_buffer: '0.00',
      instance_limit: '0',
      primary_color: '#3f5647',
      secondary_color: '#FFFFFF',
      force_include: false,
      forward: false,
      href: `${server.url}/v1/time_off_types/${id}`,
      sick_leave: false,
      masked: false,
      public_name: 'Off',
      allow_negative: true,
      overdraft: 'allow',
      overdraft_hours: null,
      default_day_hours: 24,
      counts_as_worked: false,
      callback_exclusion_hours: 0,
    });
    await expectNotFoundForOtherOrg(other, 'GET', `/time_off_types/${id}`);
    const missing = await org.get('/time_off_types/999999');
    expect(missing).toBeNotFound('TimeOffType');
  });
});

describe('PATCH /time_off_types/{id} (extension)', () => {
  it('changes only the fields sent and logs the change', async () => {
    const id = (await org.post('/time_off_types', sick)).body.id;
    const response = await org.patch(`/time_off_types/${id}`, { label: 'Sick Leave', instance_limit: 2 });
    expect(response).toSucceed(200, 'Time off type updated successfully.', {
      id,
    });
    expect((await org.get(`/time_off_types/${id}`)).body).toMatchObject({
      label: 'Sick Leave',
      instance_limit: '2',
      work_code: 'SL',
      force_include: true,
    });
    expect((await org.get('/logs')).body.data[0].event_description).toMatch(/updated time off type Sick Leave\.$/);
    await expectNotFoundForOtherOrg(other, 'PATCH', `/time_off_types/${id}`, { label: 'Hacked' });
  });

  it('sets the default day length and whether the hours count as worked; 422 naming each bad field', async () => {
    const created = await org.post('/time_off_types', {
      label: 'Training leave',
      default_day_hours: 8,
      counts_as_worked: true,
    });
    expect(created.status, created.text).toBe(201);
    const id = created.body.id;
    expect((await org.get(`/time_off_types/${id}`)).body).toMatchObject({
      default_day_hours: 8,
      counts_as_worked: true,
    });
    expect(
      (await org.patch(`/time_off_types/${id}`, { default_day_hours: 10.5, counts_as_worked: false })).status,
    ).toBe(200);
    expect((await org.get(`/time_off_types/${id}`)).body).toMatchObject({
      default_day_hours: 10.5,
      counts_as_worked: false,
    });
    const bad = await org.patch(`/time_off_types/${id}`, { default_day_hours: 0, counts_as_worked: 'sometimes' });
    expect(bad.status).toBe(422);
    expect(bad.body.error_message).toEqual([
      'The default day hours must be greater than 0.',
      'The counts as worked field must be true or false.',
    ]);
    expect((await org.patch(`/time_off_types/${id}`, { default_day_hours: 25 })).status).toBe(422);
    expect((await org.get(`/time_off_types/${id}`)).body).toMatchObject({
      default_day_hours: 10.5,
      counts_as_worked: false,
    });
  });
});

describe('DELETE /time_off_types/{id} (extension)', () => {
  it('soft-deletes: gone from the list, unusable for new time off', async () => {
    const id = (await org.post('/time_off_types', { label: 'Temporary' })).body.id;
    const response = await org.del(`/time_off_types/${id}`);
    expect(response).toSucceed(200, 'Time off type removed successfully.');
    expect((await org.get('/time_off_types')).body.map((t: { id: string }) => t.id)).not.toContain(String(id));
    const user = await org.createUser();
    const create = await postTimeOff(org, {
      userId: user,
      adminId: user,
      start: '2030-01-01 08:00:00',
      end: '2030-01-02 08:00:00',
      typeId: id,
    });
    expect(create).toBeInvalid(['The selected time off type id is invalid.']);
    expect((await org.del(`/time_off_types/${id}`)).status).toBe(404);
  });
});

describe('sick_leave (extension): the type "Mark sick" records', () => {
  const flagged = async (as = org) =>
    ((await as.get('/time_off_types')).body as Array<{ label: string; sick_leave: boolean }>)
      .filter((t) => t.sick_leave)
      .map((t) => t.label);

  it('is set on create or by PATCH, on one type at a time, and cleared by PATCH or delete', async () => {
    const target = await server.newOrg();
    const illness = (await target.post('/time_off_types', { label: 'Illness', sick_leave: true })).body.id;
    const family = (await target.post('/time_off_types', { label: 'Family sick' })).body.id;
    expect(await flagged(target)).toEqual(['Illness']);
    expect((await target.get(`/time_off_types/${illness}`)).body.sick_leave).toBe(true);
    // the name does not matter: setting it on another type takes it off the first
    expect((await target.patch(`/time_off_types/${family}`, { sick_leave: true })).status).toBe(200);
    expect(await flagged(target)).toEqual(['Family sick']);
    expect((await target.patch(`/time_off_types/${family}`, { sick_leave: false })).status).toBe(200);
    expect(await flagged(target)).toEqual([]);
    await target.patch(`/time_off_types/${illness}`, { sick_leave: true });
    expect((await target.del(`/time_off_types/${illness}`)).status).toBe(200);
    expect(await flagged(target)).toEqual([]);
    // a new type may then carry it (the deleted one holds no flag)
    expect((await target.post('/time_off_types', { label: 'Sick 2', sick_leave: true })).status).toBe(201);
    expect(await flagged(target)).toEqual(['Sick 2']);
    expect(await flagged(other)).toEqual([]);
  });

  it('stays on exactly one type when several requests set it at once', async () => {
    const target = await server.newOrg();
    const ids: number[] = [];
    for (let i = 0; i < 5; i += 1) ids.push((await target.post('/time_off_types', { label: `Leave ${i}` })).body.id);
    const answers = await Promise.all([
      ...ids.map((id) => target.patch(`/time_off_types/${id}`, { sick_leave: true })),
      ...[5, 6].map((i) => target.post('/time_off_types', { label: `Leave ${i}`, sick_leave: true })),
    ]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 201, 201]);
    expect(await flagged(target)).toHaveLength(1);
  });

  it('refuses a value that is not true or false, in words', async () => {
    const id = (await org.post('/time_off_types', { label: 'Maybe sick' })).body.id;
    const bad = await org.patch(`/time_off_types/${id}`, { sick_leave: 'yes please' });
    expect(bad).toBeInvalid(['The sick leave field must be true or false.']);
  });
});
