import { describe, expect, it } from 'vitest';
import { expectAuthRequired } from '../../../test/helpers/common.js';
import { useOrgs } from '../../../test/helpers/server.js';

const { server, org, other } = await useOrgs();

describe('POST /groups', () => {
  it('creates a group and logs it', async () => {
    const response = await org.post('/groups', { name: 'B Shift' });
    expect(response).toSucceed(201, 'Added new group B Shift.', {
      id: expect.any(Number),
    });
    const logs = await org.get('/logs');
    expect(logs.body.data[0].event_description).toMatch(/created group B Shift$/);
  });

  it('requires a name', async () => {
    const response = await org.post('/groups', {});
    expect(response).toBeInvalid(['The name field is required.']);
  });

  it('requires a token', () => expectAuthRequired(server, 'POST', '/groups', { name: 'X' }));
});

describe('GET /groups', () => {
  it('lists groups with string ids and `label`, by name', async () => {
    const created = await org.post('/groups', { name: 'A Shift' });
    const response = await org.get('/groups');
    expect(response).toAnswer(200, [
      { id: String(created.body.id), label: 'A Shift' },
      { id: expect.any(String), label: 'B Shift' },
    ]);
  });

  it('shows nothing of another organization', async () => {
    expect((await other.get('/groups')).body).toEqual([]);
  });

  it('requires a token', () => expectAuthRequired(server, 'GET', '/groups'));
});
