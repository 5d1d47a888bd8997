import { describe, expect, it } from 'vitest';
import { expectAuthRequired, expectNotFoundForOtherOrg } from '../../../test/helpers/common.js';
import { useOrgs } from '../../../test/helpers/server.js';

const { server, org, other } = await useOrgs();
const creatorId = await org.createUser({ first_name: 'Hass', last_name: 'Brycen' });

let emergencyId: number;
let responderId: number;

const creator = () => ({ id: creatorId, name: 'Hass Brycen', href: `${server.url}/v1/users/${creatorId}` });

describe('POST /certifications', () => {
  it('creates a certification', async () => {
    const response = await org.post('/certifications', { name: 'Emergency', cert_id: 'EMERG', created_by: creatorId });
    expect(response).toSucceed(201, 'Added new certification Emergency.', {
      id: expect.any(Number),
    });
    emergencyId = response.body.id;
    responderId = (
      await org.post('/certifications', { name: 'First Responder', cert_id: 'FRS', created_by: creatorId })
    ).body.id;
  });

  it('requires name, cert_id and a valid created_by', async () => {
    expect(await org.post('/certifications', { cert_id: 'X', created_by: creatorId })).toBeInvalid([
      'The name field is required.',
    ]);
    expect((await org.post('/certifications', { name: 'X', created_by: creatorId })).status).toBe(422);
    expect((await org.post('/certifications', { name: 'X', cert_id: 'X' })).status).toBe(422);
    expect(await org.post('/certifications', { name: 'X', cert_id: 'X', created_by: 999999 })).toBeInvalid([
      'The selected created by is invalid.',
    ]);
  });

  it('requires a token', () =>
    expectAuthRequired(server, 'POST', '/certifications', { name: 'X', cert_id: 'X', created_by: 1 }));
});

describe('GET /certifications', () => {
  it('lists certifications with their creator', async () => {
    const response = await org.get('/certifications');
    expect(response).toAnswer(200, [
      { id: emergencyId, name: 'Emergency', cert_id: 'EMERG', created_by: creator() },
      { id: responderId, name: 'First Responder', cert_id: 'FRS', created_by: creator() },
    ]);
    expect((await other.get('/certifications')).body).toEqual([]);
  });

  it('requires a token', () => expectAuthRequired(server, 'GET', '/certifications'));
});

describe('GET /certifications/{id}', () => {
  it('returns one certification', async () => {
    const response = await org.get(`/certifications/${responderId}`);
    expect(response).toAnswer(200, { id: responderId, name: 'First Responder', cert_id: 'FRS', created_by: creator() });
  });

  it('answers 404 for a missing certification and another organization', async () => {
    expect(await org.get('/certifications/999999')).toBeNotFound('Certification');
    await expectNotFoundForOtherOrg(other, 'GET', `/certifications/${responderId}`);
  });
});

describe('PUT /certifications/{id}', () => {
  it('changes only the fields sent', async () => {
    const response = await org.put(`/certifications/${responderId}`, { name: 'Second Responder' });
    expect(response).toSucceed(200, 'Updated certification Second Responder.', {
      id: responderId,
    });
    expect((await org.get(`/certifications/${responderId}`)).body).toMatchObject({
      name: 'Second Responder',
      cert_id: 'FRS',
    });
    await org.put(`/certifications/${responderId}`, { cert_id: 'SRS' });
    expect((await org.get(`/certifications/${responderId}`)).body).toMatchObject({
      name: 'Second Responder',
      cert_id: 'SRS',
    });
  });

  it('answers 404 for another organization', () =>
    expectNotFoundForOtherOrg(other, 'PUT', `/certifications/${responderId}`, { name: 'X' }));
});

describe('DELETE /certifications/{id}', () => {
  it('answers 404 for another organization', () =>
    expectNotFoundForOtherOrg(other, 'DELETE', `/certifications/${emergencyId}`));

  it('soft-deletes: the certification vanishes from reads', async () => {
    const response = await org.del(`/certifications/${emergencyId}`);
    expect(response).toSucceed(200, 'Deleted certification Emergency.');
    expect((await org.get(`/certifications/${emergencyId}`)).status).toBe(404);
    expect((await org.get('/certifications')).body.map((c: { id: number }) => c.id)).toEqual([responderId]);
    expect((await org.put(`/certifications/${emergencyId}`, { name: 'X' })).status).toBe(404);
  });

  it('answers 400 when deleting again', async () => {
    const response = await org.del(`/certifications/${emergencyId}`);
    expect(response).toAnswer(400, {
      status: 400,
      error: 'bad_request',
      error_message: 'Certification already deleted.',
    });
  });
});
