import { describe, expect, it } from 'vitest';
import { expectAuthRequired, expectNotFoundForOtherOrg } from '../../../test/helpers/common.js';
import { useOrgs } from '../../../test/helpers/server.js';
import { DEFAULT_WORK_TYPES } from './repository.js';

const { server, org, other } = await useOrgs();

const workTypeHref = (id: number) => `${server.url}/v1/work_types/${id}`;

describe('GET /work_types', () => {
  it('lists the default work types of a new organization in position order', async () => {
    const fresh = await server.newOrg();
    const response = await fresh.get('/work_types');
    expect(response).toAnswer(
      200,
      DEFAULT_WORK_TYPES.map((type, position) => ({
        id: expect.any(Number),
        label: type.label,
        work_code: type.work_code,
        primary_color: type.primary_color,
        secondary_color: type.secondary_color,
        excludes_from_callback: Boolean(type.excludes_from_callback),
        position,
        href: workTypeHref(response.body[position].id),
      })),
    );
  });

  it('leaves out deleted work types', async () => {
    const created = await org.post('/work_types', { label: 'Gone' });
    await org.del(`/work_types/${created.body.id}`);
    const response = await org.get('/work_types');
    expect(response.body.map((t: { label: string }) => t.label)).not.toContain('Gone');
  });

  it('requires a token', () => expectAuthRequired(server, 'GET', '/work_types'));
});

describe('POST /work_types', () => {
  it('creates a work type with default colors at the end of the list', async () => {
    const response = await org.post('/work_types', { label: 'Comp time', excludes_from_callback: true });
    expect(response).toSucceed(201, 'Work type created successfully.', {
      id: expect.any(Number),
      label: 'Comp time',
      work_code: null,
      primary_color: '#3B4650',
      secondary_color: '#FFFFFF',
      excludes_from_callback: true,
      position: expect.any(Number),
      href: workTypeHref(response.body.id),
    });
    const logs = await org.get('/logs');
    expect(logs.body.data[0].event_description).toMatch(/created work type Comp time\.$/);
  });

  it('requires a label and checks colors', async () => {
    const response = await org.post('/work_types', { primary_color: 'blue' });
    expect(response.status).toBe(422);
    expect(response.body.error).toBe('invalid_params');
  });

  it('requires a token', () => expectAuthRequired(server, 'POST', '/work_types', { label: 'X' }));
});

describe('GET /work_types/{id}', () => {
  it('shows one work type', async () => {
    const created = await org.post('/work_types', {
      label: 'Earned time off',
      work_code: 'ETO',
      primary_color: '#3B4650',
      position: 0,
    });
    const response = await org.get(`/work_types/${created.body.id}`);
    expect(response).toAnswer(200, {
      id: created.body.id,
      label: 'Earned time off',
      work_code: 'ETO',
      primary_color: '#3B4650',
      secondary_color: '#FFFFFF',
      excludes_from_callback: false,
      position: 0,
      href: workTypeHref(created.body.id),
    });
  });

  it('is a 404 for a missing or foreign work type', async () => {
    const response = await org.get('/work_types/999999');
    expect(response).toBeNotFound('WorkType');
    const created = await org.post('/work_types', { label: 'Mine' });
    await expectNotFoundForOtherOrg(other, 'GET', `/work_types/${created.body.id}`);
  });

  it('requires a token', () => expectAuthRequired(server, 'GET', '/work_types/1'));
});

describe('PATCH /work_types/{id}', () => {
  it('changes any subset', async () => {
    const created = await org.post('/work_types', { label: 'Overtime' });
    const response = await org.patch(`/work_types/${created.body.id}`, {
      work_code: 'OT2',
      excludes_from_callback: true,
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      success: true,
      code: 200,
      label: 'Overtime',
      work_code: 'OT2',
      excludes_from_callback: true,
    });
  });

  it('is a 404 for another organization', async () => {
    const created = await org.post('/work_types', { label: 'Mine' });
    await expectNotFoundForOtherOrg(other, 'PATCH', `/work_types/${created.body.id}`, { label: 'X' });
  });

  it('requires a token', () => expectAuthRequired(server, 'PATCH', '/work_types/1', { label: 'X' }));
});

describe('DELETE /work_types/{id}', () => {
  it('soft-deletes the work type and its subtypes', async () => {
    const created = await org.post('/work_types', { label: 'Temporary' });
    const subtype = await org.post('/work_subtypes', { work_type_id: created.body.id, label: 'Sub' });
    const response = await org.del(`/work_types/${created.body.id}`);
    expect(response).toSucceed(200, 'Work type deleted successfully.', {
      id: created.body.id,
    });
    expect((await org.get(`/work_types/${created.body.id}`)).status).toBe(404);
    expect((await org.get(`/work_subtypes/${subtype.body.id}`)).status).toBe(404);
  });

  it('is a 404 for another organization', async () => {
    const created = await org.post('/work_types', { label: 'Mine' });
    await expectNotFoundForOtherOrg(other, 'DELETE', `/work_types/${created.body.id}`);
  });

  it('requires a token', () => expectAuthRequired(server, 'DELETE', '/work_types/1'));
});

describe('GET /work_types/{id}/subtypes', () => {
  it('lists the subtypes of the work type', async () => {
    const type = await org.post('/work_types', { label: 'Overtime' });
    const secondType = await org.post('/work_types', { label: 'Other' });
    const holdover = await org.post('/work_subtypes', {
      work_type_id: type.body.id,
      label: 'Holdover',
      work_code: 'HO',
    });
    const mandatory = await org.post('/work_subtypes', {
      work_type_id: type.body.id,
      label: 'Mandatory',
      work_code: 'M-OT',
    });
    await org.post('/work_subtypes', { work_type_id: secondType.body.id, label: 'Elsewhere' });
    const response = await org.get(`/work_types/${type.body.id}/subtypes`);
    expect(response).toAnswer(200, [
      { id: holdover.body.id, work_type_id: type.body.id, label: 'Holdover', work_code: 'HO' },
      { id: mandatory.body.id, work_type_id: type.body.id, label: 'Mandatory', work_code: 'M-OT' },
    ]);
  });

  it('is a 404 for a missing or foreign work type', async () => {
    expect((await org.get('/work_types/999999/subtypes')).status).toBe(404);
    const created = await org.post('/work_types', { label: 'Mine' });
    await expectNotFoundForOtherOrg(other, 'GET', `/work_types/${created.body.id}/subtypes`);
  });

  it('requires a token', () => expectAuthRequired(server, 'GET', '/work_types/1/subtypes'));
});
