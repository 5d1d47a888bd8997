import { describe, expect, it } from 'vitest';
import { expectAuthRequired, expectNotFoundForOtherOrg } from '../../../test/helpers/common.js';
import { useOrgs } from '../../../test/helpers/server.js';

const { server, org, other } = await useOrgs();

let captainId: number;
let engineId: number;

describe('POST /labels', () => {
  it('creates a label at the end of the list and logs it', async () => {
    const first = await org.post('/labels', { label: 'CPT', color: '#CCCCCC', text_color: '#333333' });
    expect(first).toSucceed(201, 'Added new label CPT.', {
      id: expect.any(Number),
    });
    captainId = first.body.id;
    const second = await org.post('/labels', { label: 'ENG', color: '#ff0000', text_color: '#ffffff' });
    engineId = second.body.id;
    const logs = await org.get('/logs');
    expect(logs.body.data[0].event_description).toMatch(/created label ENG$/);
  });

  it('requires label, color and text_color and checks the colors', async () => {
    const missing = await org.post('/labels', {});
    expect(missing).toBeInvalid([
      'The label field is required.',
      'The color field is required.',
      'The text color field is required.',
    ]);
    const badColor = await org.post('/labels', { label: 'X', color: 'red', text_color: '#fff' });
    expect(badColor.status).toBe(422);
  });

  it('requires a token', () =>
    expectAuthRequired(server, 'POST', '/labels', { label: 'A', color: '#000000', text_color: '#ffffff' }));
});

describe('GET /labels', () => {
  it('lists labels with string ids and positions, in position order', async () => {
    const response = await org.get('/labels');
    expect(response).toAnswer(200, [
      { id: String(captainId), label: 'CPT', color: '#CCCCCC', text_color: '#333333', position: '1' },
      { id: String(engineId), label: 'ENG', color: '#ff0000', text_color: '#ffffff', position: '2' },
    ]);
  });

  it('shows nothing of another organization', async () => {
    const response = await other.get('/labels');
    expect(response.body).toEqual([]);
  });

  it('requires a token', () => expectAuthRequired(server, 'GET', '/labels'));
});

describe('GET /labels/{id}', () => {
  it('returns one label', async () => {
    const response = await org.get(`/labels/${captainId}`);
    expect(response).toAnswer(200, {
      id: String(captainId),
      label: 'CPT',
      color: '#CCCCCC',
      text_color: '#333333',
      position: '1',
    });
  });

  it('answers 404 for a missing label and for another organization', async () => {
    const response = await org.get('/labels/999999');
    expect(response).toBeNotFound('Label');
    await expectNotFoundForOtherOrg(other, 'GET', `/labels/${captainId}`);
  });
});

describe('POST /labels/{id}', () => {
  it('changes a label and keeps its position when omitted', async () => {
    const response = await org.post(`/labels/${captainId}`, { label: 'CAPT', color: '#111111', text_color: '#eeeeee' });
    expect(response).toSucceed(200, 'Updated label CAPT.', {
      id: captainId,
    });
    const read = await org.get(`/labels/${captainId}`);
    expect(read.body).toEqual({
      id: String(captainId),
      label: 'CAPT',
      color: '#111111',
      text_color: '#eeeeee',
      position: '1',
    });
  });

  it('moves a label when position is given', async () => {
    await org.post(`/labels/${captainId}`, { label: 'CAPT', color: '#111111', text_color: '#eeeeee', position: 5 });
    const list = await org.get('/labels');
    expect(list.body.map((l: { id: string }) => l.id)).toEqual([String(engineId), String(captainId)]);
  });

  it('requires the label fields', async () => {
    const response = await org.post(`/labels/${captainId}`, { label: 'only' });
    expect(response.status).toBe(422);
  });

  it('answers 404 for another organization', () =>
    expectNotFoundForOtherOrg(other, 'POST', `/labels/${captainId}`, {
      label: 'X',
      color: '#000000',
      text_color: '#ffffff',
    }));
});

describe('DELETE /labels/{id}', () => {
  it('answers 404 for another organization', () => expectNotFoundForOtherOrg(other, 'DELETE', `/labels/${engineId}`));

  it('deletes a label so that it vanishes from reads', async () => {
    const response = await org.del(`/labels/${engineId}`);
    expect(response).toSucceed(200, 'Deleted label ENG.');
    expect((await org.get(`/labels/${engineId}`)).status).toBe(404);
    expect((await org.get('/labels')).body.map((l: { id: string }) => l.id)).toEqual([String(captainId)]);
    expect((await org.del(`/labels/${engineId}`)).status).toBe(404);
  });

  it('requires a token', () => expectAuthRequired(server, 'DELETE', `/labels/${captainId}`));
});
