import { describe, expect, it } from 'vitest';
import { expectAuthRequired, expectNotFoundForOtherOrg } from '../../../test/helpers/common.js';
import { useOrgs } from '../../../test/helpers/server.js';

const { server, org, other } = await useOrgs();
const adminId = await org.createUser();

let januaryId: number;
let februaryId: number;

const LOCAL_DATETIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

describe('POST /visual_cycles', () => {
  it('creates a cycle, keeping the date of datetime inputs', async () => {
    const response = await org.post('/visual_cycles', {
      name: 'FLSA Cycle #1',
      start: '2017-01-01 00:00:00',
      end: '2017-01-28',
      color: '#f00',
      text_color: '#fff',
      created_by: adminId,
    });
    expect(response).toSucceed(201, 'Added new visual cycle FLSA Cycle #1.', {
      id: expect.any(Number),
    });
    januaryId = response.body.id;
    februaryId = (
      await org.post('/visual_cycles', {
        name: 'FLSA Cycle #2',
        start: '2017-01-29',
        end: '2017-02-25',
        color: '#00ff00',
        text_color: '#000000',
      })
    ).body.id;
  });

  it('requires every field, valid colors and end not before start', async () => {
    const base = { name: 'X', start: '2017-01-01', end: '2017-01-28', color: '#f00', text_color: '#fff' };
    for (const field of Object.keys(base)) {
      const body: Record<string, string> = { ...base };
      delete body[field];
      expect((await org.post('/visual_cycles', body)).status, field).toBe(422);
    }
    expect((await org.post('/visual_cycles', { ...base, color: 'red' })).status).toBe(422);
    expect(await org.post('/visual_cycles', { ...base, end: '2016-12-31' })).toBeInvalid([
      'The end must be after the start.',
    ]);
  });

  it('requires a token', () => expectAuthRequired(server, 'POST', '/visual_cycles', {}));
});

describe('GET /visual_cycles', () => {
  it('lists cycles per sample shape', async () => {
    const response = await org.get('/visual_cycles');
    expect(response).toAnswer(200, [
      {
        id: januaryId,
        name: 'FLSA Cycle #1',
        start: '2017-01-01',
        end: '2017-01-28',
        color: '#f00',
        text_color: '#fff',
        created_by: adminId,
        created_at: expect.stringMatching(LOCAL_DATETIME),
        deleted_by: null,
        deleted_at: null,
      },
      {
        id: februaryId,
        name: 'FLSA Cycle #2',
        start: '2017-01-29',
        end: '2017-02-25',
        color: '#00ff00',
        text_color: '#000000',
        created_by: null,
        created_at: expect.stringMatching(LOCAL_DATETIME),
        deleted_by: null,
        deleted_at: null,
      },
    ]);
    expect((await other.get('/visual_cycles')).body).toEqual([]);
  });

  it('with start and end returns only cycles lying within them', async () => {
    const ids = async (query: Record<string, string>) =>
      (await org.get('/visual_cycles', { query })).body.map((c: { id: number }) => c.id);
    expect(await ids({ start: '2017-01-01', end: '2017-01-31' })).toEqual([januaryId]);
    expect(await ids({ start: '2017-01-15' })).toEqual([februaryId]);
    expect(await ids({ end: '2017-02-25' })).toEqual([januaryId, februaryId]);
    expect(await ids({ start: '2017-01-02', end: '2017-02-24' })).toEqual([]);
  });

  it('rejects bad dates', async () => {
    expect((await org.get('/visual_cycles', { query: { start: 'soon' } })).status).toBe(422);
  });

  it('requires a token', () => expectAuthRequired(server, 'GET', '/visual_cycles'));
});

describe('GET /visual_cycles/{id}', () => {
  it('returns one cycle', async () => {
    const response = await org.get(`/visual_cycles/${januaryId}`);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id: januaryId, name: 'FLSA Cycle #1', deleted_at: null });
  });

  it('answers 404 for a missing cycle and another organization', async () => {
    expect(await org.get('/visual_cycles/999999')).toBeNotFound('VisualCycle');
    await expectNotFoundForOtherOrg(other, 'GET', `/visual_cycles/${januaryId}`);
  });
});

describe('PUT /visual_cycles/{id}', () => {
  it('changes only the fields sent', async () => {
    const response = await org.put(`/visual_cycles/${februaryId}`, { name: 'FLSA Cycle 2', end: '2017-02-26' });
    expect(response).toSucceed(200, 'Updated visual cycle FLSA Cycle 2.', {
      id: februaryId,
    });
    expect((await org.get(`/visual_cycles/${februaryId}`)).body).toMatchObject({
      name: 'FLSA Cycle 2',
      start: '2017-01-29',
      end: '2017-02-26',
      color: '#00ff00',
    });
  });

  it('refuses an end before the start', async () => {
    expect((await org.put(`/visual_cycles/${februaryId}`, { end: '2017-01-01' })).status).toBe(422);
  });

  it('answers 404 for another organization', () =>
    expectNotFoundForOtherOrg(other, 'PUT', `/visual_cycles/${februaryId}`, { name: 'X' }));
});

describe('DELETE /visual_cycles/{id}', () => {
  it('answers 404 for another organization', () =>
    expectNotFoundForOtherOrg(other, 'DELETE', `/visual_cycles/${februaryId}`));

  it('soft-deletes with deleted_by and deleted_at', async () => {
    const response = await org.del(`/visual_cycles/${februaryId}`, undefined, { query: { deleted_by: adminId } });
    expect(response).toSucceed(200, 'Deleted visual cycle FLSA Cycle 2.');
    expect((await org.get(`/visual_cycles/${februaryId}`)).body).toMatchObject({
      deleted_by: adminId,
      deleted_at: expect.stringMatching(LOCAL_DATETIME),
    });
    expect((await org.get('/visual_cycles')).body.map((c: { id: number }) => c.id)).toEqual([januaryId]);
  });

  it('answers 404 when deleting or changing a deleted cycle', async () => {
    expect((await org.del(`/visual_cycles/${februaryId}`)).status).toBe(404);
    expect((await org.put(`/visual_cycles/${februaryId}`, { name: 'X' })).status).toBe(404);
  });
});
