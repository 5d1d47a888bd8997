import { describe, expect, it } from 'vitest';
import { expectAuthRequired, expectNotFoundForOtherOrg } from '../../../test/helpers/common.js';
import { useOrgs } from '../../../test/helpers/server.js';

const { server, org, other } = await useOrgs();
const hassId = await org.createUser({ first_name: 'Hass', last_name: 'Brycen' });
const johnId = await org.createUser({ first_name: 'John', last_name: 'Doe' });

const hass = () => ({
  id: 123456,
  first_name: 'Hass',
  last_name: 'Brycen',
  service_user_id: hassId,
  service_company_id: org.orgId,
  partner_customer_id: 1,
});

describe('POST /partner/users (extension)', () => {
  it('maps partner users onto users', async () => {
    const response = await org.post('/partner/users', { id: 123456, service_user_id: hassId, partner_customer_id: 1 });
    expect(response).toSucceed(201, 'Mapped partner user 123456.', {
      id: 123456,
    });
    expect(
      (await org.post('/partner/users', { id: 123457, service_user_id: johnId, partner_customer_id: 1 })).status,
    ).toBe(201);
  });

  it('refuses taken ids and unknown users', async () => {
    expect(
      (await org.post('/partner/users', { id: 123456, service_user_id: johnId, partner_customer_id: 1 })).body,
    ).toEqual({
      status: 422,
      error: 'invalid_params',
      // 123456 is Hass and John is 123457: both fields are taken, and one 422 names both
      error_message: ['The id has already been taken.', 'The service user id has already been taken.'],
    });
    expect((await org.post('/partner/users', { id: 9, service_user_id: hassId, partner_customer_id: 1 })).body).toEqual(
      { status: 422, error: 'invalid_params', error_message: ['The service user id has already been taken.'] },
    );
    expect((await org.post('/partner/users', { id: 9, service_user_id: 999999, partner_customer_id: 1 })).body).toEqual(
      { status: 422, error: 'invalid_params', error_message: ['The selected service user id is invalid.'] },
    );
  });

  it('requires a token', () =>
    expectAuthRequired(server, 'POST', '/partner/users', { id: 1, service_user_id: 1, partner_customer_id: 1 }));
});

describe('GET /partner/users', () => {
  it('lists mappings per sample shape', async () => {
    const response = await org.get('/partner/users');
    expect(response).toAnswer(200, [
      hass(),
      {
        id: 123457,
        first_name: 'John',
        last_name: 'Doe',
        service_user_id: johnId,
        service_company_id: org.orgId,
        partner_customer_id: 1,
      },
    ]);
    expect((await other.get('/partner/users')).body).toEqual([]);
  });

  it('requires a token', () => expectAuthRequired(server, 'GET', '/partner/users'));
});

describe('GET /partner/users/{id}', () => {
  it('finds a mapping by partner user id', async () => {
    const response = await org.get('/partner/users/123456');
    expect(response).toAnswer(200, hass());
  });

  it('answers 404 for an unknown partner id and another organization', async () => {
    expect(await org.get(`/partner/users/${hassId}`)).toBeNotFound('PartnerUser');
    await expectNotFoundForOtherOrg(other, 'GET', '/partner/users/123456');
  });
});

describe('PATCH /partner/users/{id} (extension)', () => {
  it('changes the customer id', async () => {
    const response = await org.patch('/partner/users/123456', { partner_customer_id: 7 });
    expect(response).toSucceed(200, 'Updated partner user 123456.', {
      id: 123456,
    });
    expect((await org.get('/partner/users/123456')).body).toEqual({ ...hass(), partner_customer_id: 7 });
  });

  it('answers 404 for another organization', () =>
    expectNotFoundForOtherOrg(other, 'PATCH', '/partner/users/123456', { partner_customer_id: 2 }));
});

describe('DELETE /partner/users/{id} (extension)', () => {
  it('answers 404 for another organization', () => expectNotFoundForOtherOrg(other, 'DELETE', '/partner/users/123457'));

  it('removes a mapping', async () => {
    expect(await org.del('/partner/users/123457')).toSucceed(200, 'Removed partner user 123457.');
    expect((await org.get('/partner/users/123457')).status).toBe(404);
  });
});
