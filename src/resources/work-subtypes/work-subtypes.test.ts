import { describe, expect, it } from 'vitest';
import { expectAuthRequired, expectNotFoundForOtherOrg } from '../../../test/helpers/common.js';
import { useOrgs } from '../../../test/helpers/server.js';

const { server, org, other } = await useOrgs();
const workTypeId: number = (await org.post('/work_types', { label: 'Overtime' })).body.id;

describe('POST /work_subtypes', () => {
  it('creates a subtype of a work type', async () => {
    const response = await org.post('/work_subtypes', { work_type_id: workTypeId, label: 'Holdover', work_code: 'HO' });
    expect(response).toSucceed(201, 'Work subtype created successfully.', {
      id: expect.any(Number),
      work_type_id: workTypeId,
      label: 'Holdover',
      work_code: 'HO',
    });
  });

  it('rejects an unknown or foreign work type', async () => {
    const foreignType = (await other.post('/work_types', { label: 'Theirs' })).body.id;
    const response = await org.post('/work_subtypes', { work_type_id: foreignType, label: 'X' });
    expect(response).toBeInvalid(['The selected work type id is invalid.']);
  });

  it('requires a token', () => expectAuthRequired(server, 'POST', '/work_subtypes', { work_type_id: 1, label: 'X' }));
});

describe('GET /work_subtypes', () => {
  it('lists every non-deleted subtype of the organization', async () => {
    const target = await server.newOrg();
    const type = (await target.post('/work_types', { label: 'Overtime' })).body.id;
    const holdover = (await target.post('/work_subtypes', { work_type_id: type, label: 'Holdover', work_code: 'HO' }))
      .body.id;
    const mandatory = (
      await target.post('/work_subtypes', { work_type_id: type, label: 'Mandatory', work_code: 'M-OT' })
    ).body.id;
    const gone = (await target.post('/work_subtypes', { work_type_id: type, label: 'Gone' })).body.id;
    await target.del(`/work_subtypes/${gone}`);
    const response = await target.get('/work_subtypes');
    expect(response).toAnswer(200, [
      { id: holdover, work_type_id: type, label: 'Holdover', work_code: 'HO' },
      { id: mandatory, work_type_id: type, label: 'Mandatory', work_code: 'M-OT' },
    ]);
    expect((await other.get('/work_subtypes')).body).toEqual([]);
  });

  it('requires a token', () => expectAuthRequired(server, 'GET', '/work_subtypes'));
});

describe('GET /work_subtypes/{id}', () => {
  it('shows one subtype; 404 for another organization', async () => {
    const id = (await org.post('/work_subtypes', { work_type_id: workTypeId, label: 'One' })).body.id;
    const response = await org.get(`/work_subtypes/${id}`);
    expect(response.body).toEqual({ id, work_type_id: workTypeId, label: 'One', work_code: null });
    await expectNotFoundForOtherOrg(other, 'GET', `/work_subtypes/${id}`);
  });
});

describe('PATCH /work_subtypes/{id}', () => {
  it('changes any subset', async () => {
    const id = (await org.post('/work_subtypes', { work_type_id: workTypeId, label: 'Before' })).body.id;
    const response = await org.patch(`/work_subtypes/${id}`, { label: 'After', work_code: 'AF' });
    expect(response).toSucceed(200, 'Work subtype updated successfully.', {
      id,
      work_type_id: workTypeId,
      label: 'After',
      work_code: 'AF',
    });
  });

  it('is a 404 for another organization', async () => {
    const id = (await org.post('/work_subtypes', { work_type_id: workTypeId, label: 'Mine' })).body.id;
    await expectNotFoundForOtherOrg(other, 'PATCH', `/work_subtypes/${id}`, { label: 'X' });
  });

  it('requires a token', () => expectAuthRequired(server, 'PATCH', '/work_subtypes/1', { label: 'X' }));
});

describe('DELETE /work_subtypes/{id}', () => {
  it('soft-deletes the subtype', async () => {
    const id = (await org.post('/work_subtypes', { work_type_id: workTypeId, label: 'Doomed' })).body.id;
    const response = await org.del(`/work_subtypes/${id}`);
    expect(response).toSucceed(200, 'Work subtype deleted successfully.', {
      id,
    });
    expect((await org.get(`/work_subtypes/${id}`)).status).toBe(404);
    const logs = await org.get('/logs');
    expect(logs.body.data[0].event_description).toMatch(/deleted work subtype Doomed\.$/);
  });

  it('requires a token', () => expectAuthRequired(server, 'DELETE', '/work_subtypes/1'));
});
