import { describe, expect, it } from 'vitest';
import { expectAuthRequired, expectNotFoundForOtherOrg } from '../../../test/helpers/common.js';
import { useOrgs } from '../../../test/helpers/server.js';

const { server, org, other } = await useOrgs();
const adminId = await org.createUser({ first_name: 'Hass', last_name: 'Brycen' });

let captainId: number;
let firefighterId: number;

const LOCAL_DATETIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

async function idOf(name: string): Promise<number> {
  const list = await org.get('/qualifiers');
  return list.body.find((q: { name: string }) => q.name === name).id;
}

describe('POST /qualifiers', () => {
  it('creates a qualifier and answers {inserted: 1} with a Location', async () => {
    const response = await org.post('/qualifiers', {
      name: 'Captain',
      shortcode: 'CPT',
      partner_credential_id: 1234,
      color: '#d81b60',
      text_color: '#FFFFFF',
      admin_id: adminId,
    });
    expect(response).toAnswer(201, { inserted: 1 });
    captainId = await idOf('Captain');
    expect(response.headers.get('location')).toMatch(new RegExp(`/v1/qualifiers/${captainId}$`));
    await org.post('/qualifiers', { name: 'Firefighter', shortcode: 'FF' });
    firefighterId = await idOf('Firefighter');
  });

  it('requires a name and checks referenced ids', async () => {
    expect(await org.post('/qualifiers', { shortcode: 'X' })).toBeInvalid(['The name field is required.']);
    expect(await org.post('/qualifiers', { name: 'X', title_id: 999999 })).toBeInvalid([
      'The selected title id is invalid.',
    ]);
    expect(await org.post('/qualifiers', { name: 'X', admin_id: 999999 })).toBeInvalid([
      'The selected admin id is invalid.',
    ]);
  });

  it('requires a token', () => expectAuthRequired(server, 'POST', '/qualifiers', { name: 'X' }));
});

describe('GET /qualifiers', () => {
  it('lists active qualifiers in the list form', async () => {
    const response = await org.get('/qualifiers');
    expect(response).toAnswer(200, [
      {
        id: captainId,
        name: 'Captain',
        shortcode: 'CPT',
        color: '#d81b60',
        text_color: '#FFFFFF',
        modified_by: null,
        modified_on: null,
        partner_credential_id: 1234,
      },
      {
        id: firefighterId,
        name: 'Firefighter',
        shortcode: 'FF',
        color: null,
        text_color: null,
        modified_by: null,
        modified_on: null,
        partner_credential_id: null,
      },
    ]);
    expect((await other.get('/qualifiers')).body).toEqual([]);
  });

  it('requires a token', () => expectAuthRequired(server, 'GET', '/qualifiers'));
});

describe('GET /qualifiers/{id}', () => {
  it('returns the single form', async () => {
    const response = await org.get(`/qualifiers/${captainId}`);
    expect(response).toAnswer(200, {
      id: captainId,
      name: 'Captain',
      shortcode: 'CPT',
      color: '#d81b60',
      text_color: '#FFFFFF',
      title_id: null,
      created_by: adminId,
      created_on: expect.stringMatching(LOCAL_DATETIME),
      modified_by: null,
      modified_on: null,
      deleted_at: null,
      deleted_by: null,
      partner_credential_id: 1234,
    });
    expect(Object.keys(response.body)).toEqual([
      'id',
      'name',
      'shortcode',
      'color',
      'text_color',
      'title_id',
      'created_by',
      'created_on',
      'modified_by',
      'modified_on',
      'deleted_at',
      'deleted_by',
      'partner_credential_id',
    ]);
  });

  it('answers 404 for a missing qualifier and another organization', async () => {
    expect(await org.get('/qualifiers/999999')).toBeNotFound('Qualifier');
    await expectNotFoundForOtherOrg(other, 'GET', `/qualifiers/${captainId}`);
  });
});

describe('GET /qualifiers/{id}/users', () => {
  it('lists the users holding the qualifier with their ranking', async () => {
    const userId = await org.createUser({ first_name: 'Oliver', last_name: 'Nagy' });
    await org.post(`/users/${userId}/qualifiers`, { id: captainId, ranking: 0 });
    await org.post(`/users/${adminId}/qualifiers`, { id: captainId, ranking: 0 });
    const response = await org.get(`/qualifiers/${captainId}/users`);
    expect(response).toAnswer(200, [
      { id: adminId, name: 'Hass Brycen', ranking: 0 },
      { id: userId, name: 'Oliver Nagy', ranking: 0 },
    ]);
  });

  it('leaves out inactive users, as GET /users does', async () => {
    const inactive = await org.createUser({ first_name: 'Ina', last_name: 'Active' });
    await org.post(`/users/${inactive}/qualifiers`, { id: captainId });
    expect((await org.get(`/qualifiers/${captainId}/users`)).body.map((u: { id: number }) => u.id)).toContain(inactive);
    expect((await org.patch(`/users/${inactive}`, { active: false })).status).toBe(200);
    expect((await org.get(`/qualifiers/${captainId}/users`)).body.map((u: { id: number }) => u.id)).not.toContain(
      inactive,
    );
  });

  it('answers 404 for another organization', () =>
    expectNotFoundForOtherOrg(other, 'GET', `/qualifiers/${captainId}/users`));
});

describe('PATCH /qualifiers/{id} (extension)', () => {
  it('changes only the fields sent and records who modified it', async () => {
    const response = await org.patch(`/qualifiers/${firefighterId}`, { shortcode: 'FF-01', admin_id: adminId });
    expect(response).toSucceed(200, 'Qualifier Firefighter [FF-01] updated successfully.', {
      id: firefighterId,
    });
    const read = await org.get(`/qualifiers/${firefighterId}`);
    expect(read.body).toMatchObject({
      name: 'Firefighter',
      shortcode: 'FF-01',
      modified_by: adminId,
      modified_on: expect.stringMatching(LOCAL_DATETIME),
    });
  });
});

describe('DELETE /qualifiers/{id}', () => {
  it('answers 404 for another organization', () =>
    expectNotFoundForOtherOrg(other, 'DELETE', `/qualifiers/${captainId}`));

  it('soft-deletes: gone from the list, still readable by id with deleted_at', async () => {
    const response = await org.del(`/qualifiers/${captainId}`, undefined, { query: { admin_id: adminId } });
    expect(response).toSucceed(200, 'Qualifier Captain [CPT] deleted successfully.');
    expect((await org.get('/qualifiers')).body.map((q: { id: number }) => q.id)).toEqual([firefighterId]);
    expect((await org.get(`/qualifiers/${captainId}`)).body).toMatchObject({
      deleted_at: expect.stringMatching(LOCAL_DATETIME),
      deleted_by: adminId,
    });
  });

  it('answers 409 when already deleted', async () => {
    const response = await org.del(`/qualifiers/${captainId}`);
    expect(response).toAnswer(409, {
      status: 409,
      error: 'conflict',
      error_message: 'Qualifier Captain [CPT] is already deleted.',
    });
  });
});

describe('PUT /qualifiers/{id}', () => {
  it('refuses a falsy undelete', async () => {
    const response = await org.put(`/qualifiers/${captainId}`, { undelete: 0 });
    expect(response).toBeInvalid(['The undelete field must be true.']);
  });

  it('restores a deleted qualifier and returns its summary', async () => {
    const response = await org.put(`/qualifiers/${captainId}`, { undelete: 1 });
    expect(response).toSucceed(200, 'Qualifier Captain [CPT] restored successfully.', {
      qualifier: { id: captainId, name: 'Captain', shortcode: 'CPT' },
    });
    expect((await org.get(`/qualifiers/${captainId}`)).body).toMatchObject({ deleted_at: null, deleted_by: null });
    expect((await org.get('/qualifiers')).body).toHaveLength(2);
  });

  it('answers 409 when the qualifier is not deleted', async () => {
    const response = await org.put(`/qualifiers/${captainId}`, { undelete: true });
    expect(response).toAnswer(409, {
      status: 409,
      error: 'conflict',
      error_message: 'Qualifier Captain [CPT] is not deleted, cannot restore.',
    });
  });

  it('answers 404 for another organization', () =>
    expectNotFoundForOtherOrg(other, 'PUT', `/qualifiers/${captainId}`, { undelete: 1 }));

  it('logs every change', async () => {
    const logs = await org.get('/logs');
    const texts = logs.body.data.map((entry: { event_description: string }) => entry.event_description);
    expect(texts).toEqual(
      expect.arrayContaining([
        `API client ${org.clientId} restored qualifier Captain [CPT]`,
        'Hass Brycen deleted qualifier Captain [CPT]',
      ]),
    );
  });
});
