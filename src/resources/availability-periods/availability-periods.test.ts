import { describe, expect, it } from 'vitest';
import { expectAuthRequired, expectNotFoundForOtherOrg } from '../../../test/helpers/common.js';
import { type TestOrg, useOrgs } from '../../../test/helpers/server.js';

const { server, org, other } = await useOrgs();
const userId = await org.createUser({ first_name: 'Boss', last_name: 'Doe' });
const adminId = await org.createUser({ first_name: 'Oliver', last_name: 'Nagy' });
const reasonId: number = (await org.post('/unavailability_reasons', { name: 'Default' })).body.id;

/** GET /availability_periods from `start` to `end`: the periods listed. */
const periodsOver = async (as: TestOrg, start: string, end: string) =>
  (await as.get('/availability_periods', { query: { start, end } })).body;

const ref = (id: number, name: string) => ({ id, name, href: `${server.url}/v1/users/${id}` });

describe('POST /availability_periods', () => {
  it('enters a period for a user by an admin and answers 201 with its id', async () => {
    const response = await org.post('/availability_periods', {
      user_id: userId,
      start: '2030-09-04 08:00:00',
      end: '2030-09-05 08:00:00',
      unavailability_reason_id: reasonId,
      admin_id: adminId,
      notes: 'Travelling out of country',
    });
    expect(response).toSucceed(201, 'Availability period created successfully.', {
      id: expect.any(Number),
    });
    expect(await periodsOver(org, '2030-09-01 00:00:00', '2030-10-01 00:00:00')).toEqual([
      {
        id: response.body.id,
        user: ref(userId, 'Boss Doe'),
        start: '2030-09-04 08:00:00',
        end: '2030-09-05 08:00:00',
        admin: ref(adminId, 'Oliver Nagy'),
        notes: 'Travelling out of country',
        unavailability_reason: { id: reasonId, name: 'Default' },
      },
    ]);
    const logs = await org.get('/logs');
    expect(logs.body.data[0].event_description).toBe(
      'Oliver Nagy entered unavailability (Default) for Boss Doe, 2030-09-04 08:00 to 2030-09-05 08:00.',
    );
  });

  it('shows the period as entered by the user when admin_id is omitted', async () => {
    const response = await org.post('/availability_periods', {
      user_id: userId,
      start: '2031-01-01 08:00:00',
      end: '2031-01-02 08:00:00',
    });
    expect(response.status).toBe(201);
    expect(await periodsOver(org, '2031-01-01 00:00:00', '2031-01-03 00:00:00')).toEqual([
      {
        id: response.body.id,
        user: ref(userId, 'Boss Doe'),
        start: '2031-01-01 08:00:00',
        end: '2031-01-02 08:00:00',
        admin: ref(userId, 'Boss Doe'),
        notes: null,
        unavailability_reason: null,
      },
    ]);
  });

  it('validates required fields, ids and the order of start and end', async () => {
    const base = { user_id: userId, start: '2031-02-01 08:00:00', end: '2031-02-02 08:00:00' };
    for (const field of ['user_id', 'start', 'end']) {
      const body: Record<string, unknown> = { ...base };
      delete body[field];
      const response = await org.post('/availability_periods', body);
      expect(response).toBeInvalid([`The ${field.replace('_', ' ')} field is required.`]);
    }
    const foreignReason = (await other.post('/unavailability_reasons', { name: 'Foreign' })).body.id;
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ user_id: 999999 }, 'The selected user id is invalid.'],
      [{ admin_id: 999999 }, 'The selected admin id is invalid.'],
      [{ unavailability_reason_id: foreignReason }, 'The selected unavailability reason id is invalid.'],
      [{ end: '2031-01-01 08:00:00' }, 'The end must be after the start.'],
    ];
    for (const [override, message] of cases) {
      const response = await org.post('/availability_periods', { ...base, ...override });
      expect(response).toBeInvalid([message]);
    }
  });

  it('requires a token', async () => {
    await expectAuthRequired(server, 'POST', '/availability_periods', {
      user_id: userId,
      start: '2031-02-01 08:00:00',
      end: '2031-02-02 08:00:00',
    });
  });
});

describe('GET /availability_periods', () => {
  it('lists periods overlapping the range, in order, for the organization only', async () => {
    const ids = [];
    for (const [start, end] of [
      ['2032-05-10 08:00:00', '2032-05-12 08:00:00'],
      ['2032-04-30 08:00:00', '2032-05-01 08:00:00'],
      ['2032-05-31 20:00:00', '2032-06-02 08:00:00'],
    ]) {
      ids.push((await org.post('/availability_periods', { user_id: userId, start, end, admin_id: adminId })).body.id);
    }
    const listed = await periodsOver(org, '2032-05-01 00:00:00', '2032-06-01 00:00:00');
    expect(listed.map((p: { id: number }) => p.id)).toEqual([ids[1], ids[0], ids[2]]);
    expect(await periodsOver(other, '2032-05-01 00:00:00', '2032-06-01 00:00:00')).toEqual([]);
  });

  it('requires start and end', async () => {
    const response = await org.get('/availability_periods', { query: { start: '2032-05-01 00:00:00' } });
    expect(response).toBeInvalid(['The end parameter is required.']);
  });

  it('requires a token', async () => {
    await expectAuthRequired(server, 'GET', '/availability_periods?start=2032-05-01&end=2032-06-01');
  });
});

describe('DELETE /availability_periods/{id} (extension)', () => {
  it('removes a period; 404 when unknown or of another organization', async () => {
    const id = (
      await org.post('/availability_periods', {
        user_id: userId,
        start: '2033-01-01 08:00:00',
        end: '2033-01-02 08:00:00',
      })
    ).body.id;
    await expectNotFoundForOtherOrg(other, 'DELETE', `/availability_periods/${id}`);
    const response = await org.del(`/availability_periods/${id}`);
    expect(response).toSucceed(200, 'Availability period removed successfully.');
    expect(await periodsOver(org, '2033-01-01 00:00:00', '2033-01-03 00:00:00')).toEqual([]);
    const again = await org.del(`/availability_periods/${id}`);
    expect(again).toBeNotFound('AvailabilityPeriod');
  });
});

describe('unavailability reasons (extension)', () => {
  it('creates, lists, renames and deletes reasons', async () => {
    const fresh = await server.newOrg();
    // a new organization starts with the reason "Default", which the sample body's period names
    const [initial] = (await fresh.get('/unavailability_reasons')).body;
    expect(initial).toEqual({ id: expect.any(Number), name: 'Default' });
    const freshUser = await fresh.createUser();
    const period = await fresh.post('/availability_periods', {
      user_id: freshUser,
      start: '2026-06-01 08:00:00',
      end: '2026-06-01 12:00:00',
      unavailability_reason_id: initial.id,
    });
    expect(period.status).toBe(201);
    expect((await fresh.del(`/unavailability_reasons/${initial.id}`)).status).toBe(200);
    const created = await fresh.post('/unavailability_reasons', { name: 'Training' });
    expect(created).toSucceed(201, 'Unavailability reason created successfully.', {
      id: expect.any(Number),
    });
    const id = created.body.id;
    expect((await fresh.get('/unavailability_reasons')).body).toEqual([{ id, name: 'Training' }]);
    expect((await fresh.patch(`/unavailability_reasons/${id}`, { name: 'School' })).status).toBe(200);
    expect((await fresh.get('/unavailability_reasons')).body).toEqual([{ id, name: 'School' }]);
    await expectNotFoundForOtherOrg(other, 'PATCH', `/unavailability_reasons/${id}`, { name: 'x' });
    expect((await fresh.del(`/unavailability_reasons/${id}`)).status).toBe(200);
    expect((await fresh.get('/unavailability_reasons')).body).toEqual([]);
    expect(await fresh.post('/unavailability_reasons', {})).toBeInvalid(['The name field is required.']);
  });

  it('PATCH is partial: a body without name leaves the reason as it was', async () => {
    const fresh = await server.newOrg();
    const id = (await fresh.post('/unavailability_reasons', { name: 'Training' })).body.id;
    for (const body of [{}, { deleted_at: '2026-01-01T00:00:00Z', organization_id: other.orgId }]) {
      const response = await fresh.patch(`/unavailability_reasons/${id}`, body);
      expect(response).toSucceed(200, 'Unavailability reason updated successfully.', {
        id,
      });
    }
    expect((await fresh.get('/unavailability_reasons')).body).toContainEqual({ id, name: 'Training' });
    expect((await other.get('/unavailability_reasons')).body).not.toContainEqual({ id, name: 'Training' });
    const log = await fresh.get('/logs', { query: { limit: 1 } });
    expect(log.body.data[0].event_description).toBe(
      `API client ${fresh.clientId} updated unavailability reason Training: no fields.`,
    );
    expect((await fresh.patch(`/unavailability_reasons/${id}`, { name: '' })).status).toBe(422);
  });
});
