import { describe, expect, it } from 'vitest';
import { expectAuthRequired, expectNotFoundForOtherOrg } from '../../../test/helpers/common.js';
import { useOrgs } from '../../../test/helpers/server.js';

const { server, org, other } = await useOrgs();

let captainId: number;
let firefighterId: number;

const captain = (id: number) => ({
  id,
  name: 'Captain',
  max_consecutive_hours: 0,
  weekly_limit: 0,
  monthly_limit: 0,
  yearly_limit: 1560,
  position: 1,
});
/** The callback runner's settings of a list that is answered by hand (extension). */
const manual = { contact_window_minutes: null, contact_at_once: 1, notify_group_id: null };

describe('POST /lists (extension)', () => {
  it('creates a list with hour limits; ordering defaults to rotating', async () => {
    const response = await org.post('/lists', { name: 'Captain', yearly_limit: 1560 });
    expect(response.status).toBe(201);
    captainId = response.body.id;
    expect(response).toSucceed(201, 'Added new callback list Captain.', {
      id: captainId,
      list: { ...captain(captainId), deleted: false, ordering: 'rotating', ...manual },
    });
    const second = await org.post('/lists', { name: 'Firefighter', max_consecutive_hours: 48, ordering: 'seniority' });
    firefighterId = second.body.id;
    expect(second.body.list).toMatchObject({ position: 2, ordering: 'seniority' });
  });

  it('refuses an unknown ordering, negative limits and a missing name', async () => {
    expect((await org.post('/lists', { name: 'X', ordering: 'random' })).status).toBe(422);
    expect((await org.post('/lists', { name: 'X', weekly_limit: -1 })).status).toBe(422);
    expect(await org.post('/lists', {})).toBeInvalid(['The name field is required.']);
  });

  it('requires a token', () => expectAuthRequired(server, 'POST', '/lists', { name: 'X' }));
});

describe('GET /lists', () => {
  it('lists active lists in position order', async () => {
    const response = await org.get('/lists');
    expect(response).toAnswer(200, [
      captain(captainId),
      {
        id: firefighterId,
        name: 'Firefighter',
        max_consecutive_hours: 48,
        weekly_limit: 0,
        monthly_limit: 0,
        yearly_limit: 0,
        position: 2,
      },
    ]);
    expect((await other.get('/lists')).body).toEqual([]);
  });

  it('requires a token', () => expectAuthRequired(server, 'GET', '/lists'));
});

describe('GET /titles', () => {
  it('is the same as GET /lists', async () => {
    const response = await org.get('/titles');
    expect(response).toAnswer(200, (await org.get('/lists')).body);
  });

  it('requires a token', () => expectAuthRequired(server, 'GET', '/titles'));
});

describe('GET /lists/{id}', () => {
  it('returns the list with deleted false', async () => {
    const response = await org.get(`/lists/${captainId}`);
    expect(response).toAnswer(200, { ...captain(captainId), deleted: false, ...manual });
  });

  it('answers 404 for a missing list and another organization', async () => {
    expect(await org.get('/lists/999999')).toBeNotFound('Title');
    await expectNotFoundForOtherOrg(other, 'GET', `/lists/${captainId}`);
  });
});

describe('GET /titles/{id}', () => {
  it('is the same as GET /lists/{id}', async () => {
    expect((await org.get(`/titles/${captainId}`)).body).toEqual({ ...captain(captainId), deleted: false, ...manual });
    await expectNotFoundForOtherOrg(other, 'GET', `/titles/${captainId}`);
  });
});

describe('PATCH /lists/{id} (extension)', () => {
  it('changes only the fields sent', async () => {
    const response = await org.patch(`/lists/${firefighterId}`, { weekly_limit: 56, ordering: 'hours' });
    expect(response).toSucceed(200, 'Updated callback list Firefighter.', {
      id: firefighterId,
      list: {
        id: firefighterId,
        name: 'Firefighter',
        max_consecutive_hours: 48,
        weekly_limit: 56,
        monthly_limit: 0,
        yearly_limit: 0,
        position: 2,
        deleted: false,
        ordering: 'hours',
        ...manual,
      },
    });
  });

  it('answers 404 for another organization', () =>
    expectNotFoundForOtherOrg(other, 'PATCH', `/lists/${firefighterId}`, { name: 'X' }));
});

describe('DELETE /lists/{id} (extension)', () => {
  it('answers 404 for another organization', () =>
    expectNotFoundForOtherOrg(other, 'DELETE', `/lists/${firefighterId}`));

  it('soft-deletes: gone from the list, single read shows deleted true', async () => {
    const response = await org.del(`/lists/${firefighterId}`);
    expect(response).toSucceed(200, 'Deleted callback list Firefighter.');
    expect((await org.get('/lists')).body.map((l: { id: number }) => l.id)).toEqual([captainId]);
    expect((await org.get(`/titles/${firefighterId}`)).body).toMatchObject({ deleted: true });
  });

  it('answers 400 when already deleted and 404 when changing a deleted list', async () => {
    expect((await org.del(`/lists/${firefighterId}`)).body).toEqual({
      status: 400,
      error: 'bad_request',
      error_message: 'Title already deleted.',
    });
    expect((await org.patch(`/lists/${firefighterId}`, { name: 'Back' })).status).toBe(404);
  });
});

describe('callback runner settings (extension)', () => {
  it('stores the contact window and how many are offered at once, and refuses bad values', async () => {
    const created = await org.post('/lists', { name: 'Runner', contact_window_minutes: 20, contact_at_once: 3 });
    expect(created.status, created.text).toBe(201);
    expect(created.body.list).toMatchObject({ contact_window_minutes: 20, contact_at_once: 3 });
    const changed = await org.patch(`/lists/${created.body.id}`, { contact_window_minutes: null });
    expect(changed.body.list).toMatchObject({ contact_window_minutes: null, contact_at_once: 3 });
    expect((await org.get(`/lists/${created.body.id}`)).body).toMatchObject({
      contact_window_minutes: null,
      contact_at_once: 3,
    });
    const bad = await org.post('/lists', { name: 'Bad', contact_window_minutes: 10_081, contact_at_once: 0 });
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.body.error_message)).toMatch(/contact window minutes/i);
    expect(JSON.stringify(bad.body.error_message)).toMatch(/contact at once/i);
  });

  it('names a notice group; a group of another organization or none is refused and nothing changes', async () => {
    const group = await org.post('/groups', { name: 'Duty officers' });
    expect(group.status, group.text).toBe(201);
    const created = await org.post('/lists', { name: 'Told', notify_group_id: group.body.id });
    expect(created.status, created.text).toBe(201);
    expect(created.body.list.notify_group_id).toBe(group.body.id);
    const foreign = await other.post('/groups', { name: 'Elsewhere' });
    const refused = await org.patch(`/lists/${created.body.id}`, { notify_group_id: foreign.body.id });
    expect(refused.status).toBe(422);
    expect(refused.body.error_message).toEqual(['The selected notify group id is invalid.']);
    expect((await org.get(`/lists/${created.body.id}`)).body.notify_group_id).toBe(group.body.id);
    expect((await org.post('/lists', { name: 'Nobody', notify_group_id: 999_999 })).status).toBe(422);
    const cleared = await org.patch(`/lists/${created.body.id}`, { notify_group_id: null });
    expect(cleared.body.list.notify_group_id).toBeNull();
  });
});
