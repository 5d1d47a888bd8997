import { describe, expect, it } from 'vitest';
import { expectAuthRequired, expectNotFoundForOtherOrg } from '../../../test/helpers/common.js';
import { useOrgs } from '../../../test/helpers/server.js';

const { server, org, other } = await useOrgs();
const userId = await org.createUser({ first_name: 'John', last_name: 'Doe' });

let rescueId: number;
let diveId: number;

const ISO_NO_COLON = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{4}$/;

describe('POST /filters', () => {
  it('creates a filter whose creator is the user_id sent', async () => {
    const response = await org.post('/filters', { label: 'Rescue Certified', user_id: userId });
    expect(response).toSucceed(201, 'Added new filter Rescue Certified.', {
      id: expect.any(Number),
    });
    rescueId = response.body.id;
    diveId = (await org.post('/filters', { label: 'Dive Team' })).body.id;
  });

  it('requires a label and a valid user', async () => {
    expect(await org.post('/filters', {})).toBeInvalid(['The label field is required.']);
    expect(await org.post('/filters', { label: 'X', user_id: 999999 })).toBeInvalid([
      'The selected user id is invalid.',
    ]);
  });

  it('requires a token', () => expectAuthRequired(server, 'POST', '/filters', { label: 'X' }));
});

describe('GET /filters', () => {
  it('lists active filters with string ids, offset without colon and the creator (null for a client)', async () => {
    const response = await org.get('/filters');
    expect(response).toAnswer(200, [
      {
        id: String(rescueId),
        label: 'Rescue Certified',
        created_on: expect.stringMatching(ISO_NO_COLON),
        user: { id: String(userId), name: 'John Doe' },
      },
      { id: String(diveId), label: 'Dive Team', created_on: expect.stringMatching(ISO_NO_COLON), user: null },
    ]);
    expect((await other.get('/filters')).body).toEqual([]);
  });

  it('requires a token', () => expectAuthRequired(server, 'GET', '/filters'));
});

describe('GET /filters/{id}', () => {
  it('returns the filter with deleted "0"', async () => {
    const response = await org.get(`/filters/${rescueId}`);
    expect(response).toAnswer(200, {
      id: String(rescueId),
      label: 'Rescue Certified',
      created_on: expect.stringMatching(ISO_NO_COLON),
      deleted: '0',
      user: { id: String(userId), name: 'John Doe' },
    });
  });

  it('answers 404 for a missing filter and another organization', async () => {
    expect(await org.get('/filters/999999')).toBeNotFound('Filter');
    await expectNotFoundForOtherOrg(other, 'GET', `/filters/${rescueId}`);
  });
});

describe('POST /filters/{id}', () => {
  it('renames a filter', async () => {
    const response = await org.post(`/filters/${diveId}`, { label: 'Dive Rescue' });
    expect(response).toSucceed(200, 'Updated filter Dive Rescue.', {
      id: diveId,
    });
    expect((await org.get(`/filters/${diveId}`)).body.label).toBe('Dive Rescue');
  });

  it('requires a label', async () => {
    expect((await org.post(`/filters/${diveId}`, {})).status).toBe(422);
  });

  it('answers 404 for another organization', () =>
    expectNotFoundForOtherOrg(other, 'POST', `/filters/${diveId}`, { label: 'X' }));
});

describe('DELETE /filters/{id}', () => {
  it('answers 404 for another organization', () => expectNotFoundForOtherOrg(other, 'DELETE', `/filters/${diveId}`));

  it('deletes: gone from the list, the single read shows deleted "1"', async () => {
    const response = await org.del(`/filters/${diveId}`);
    expect(response).toSucceed(200, 'Deleted filter Dive Rescue.');
    expect((await org.get('/filters')).body.map((f: { id: string }) => f.id)).toEqual([String(rescueId)]);
    expect((await org.get(`/filters/${diveId}`)).body).toMatchObject({ deleted: '1' });
  });

  it('answers 400 when already deleted, and a deleted filter cannot be renamed', async () => {
    expect((await org.del(`/filters/${diveId}`)).body).toEqual({
      status: 400,
      error: 'bad_request',
      error_message: 'Filter already deleted.',
    });
    expect((await org.post(`/filters/${diveId}`, { label: 'Back' })).status).toBe(404);
  });
});
