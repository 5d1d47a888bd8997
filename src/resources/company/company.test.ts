import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAuthRequired } from '../../../test/helpers/common.js';
import { startServer, type TestOrg, type TestServer } from '../../../test/helpers/server.js';

let server: TestServer;
let org: TestOrg;
let other: TestOrg;

const empty = {
  address: null,
  city: null,
  state: null,
  country: null,
  zip: null,
  phone: null,
  email: null,
  website: null,
};

beforeAll(async () => {
  server = await startServer();
  org = await server.newOrg({ name: 'Station County Fire', timezone: 'America/Denver' });
  other = await server.newOrg({ name: 'Other Org' });
});
afterAll(() => server.close());

describe('GET /company', () => {
  it('returns the organization with empty contact details', async () => {
    const response = await org.get('/company');
    expect(response).toAnswer(200, {
      id: org.orgId,
      name: 'Station County Fire',
      timezone: 'America/Denver',
      ...empty,
    });
  });

  it('requires a token', () => expectAuthRequired(server, 'GET', '/company'));
});

describe('PATCH /company (extension)', () => {
  it('sets contact details, only those sent', async () => {
    const first = await org.patch('/company', {
      address: '1 Main St',
      city: 'Springfield',
      email: 'chief@example.com',
    });
    expect(first.status).toBe(200);
    const expected = {
      id: org.orgId,
      name: 'Station County Fire',
      timezone: 'America/Denver',
      ...empty,
      address: '1 Main St',
      city: 'Springfield',
      email: 'chief@example.com',
    };
    expect(first).toSucceed(200, 'Company updated successfully.', {
      company: expected,
    });
    await org.patch('/company', { zip: '12345', city: null });
    expect((await org.get('/company')).body).toEqual({ ...expected, zip: '12345', city: null });
    expect((await other.get('/company')).body).toEqual({
      id: other.orgId,
      name: 'Other Org',
      timezone: 'America/Chicago',
      ...empty,
    });
    expect((await org.get('/logs')).body.data[0].event_description).toMatch(
      /updated the company details \(zip, city\)$/,
    );
  });

  it('refuses an invalid e-mail address', async () => {
    expect((await org.patch('/company', { email: 'not-an-email' })).status).toBe(422);
  });

  it('requires a token', () => expectAuthRequired(server, 'PATCH', '/company', { city: 'X' }));
});
