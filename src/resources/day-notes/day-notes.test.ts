import { describe, expect, it } from 'vitest';
import { expectAuthRequired } from '../../../test/helpers/common.js';
import { useOrgs } from '../../../test/helpers/server.js';

const { server, org, other } = await useOrgs();

describe('PUT /day_notes/{date}', () => {
  it('replaces the notes and activities of the date, sanitizing the HTML', async () => {
    const response = await org.put('/day_notes/2015-03-15', {
      notes: ['<p>Engine 2 <b>out of service</b></p><script>alert(1)</script>', 'Second note'],
      activities: ['<a href="javascript:alert(1)" onclick="x()">Hose testing</a>'],
    });
    expect(response).toAnswer(200, {
      date: '2015-03-15',
      notes: ['<p>Engine 2 <b>out of service</b></p>', 'Second note'],
      activities: ['<a rel="noopener noreferrer">Hose testing</a>'],
    });
    const logs = await org.get('/logs');
    expect(logs.body.data[0].event_description).toMatch(/updated the notes and activities of 2015-03-15\.$/);
  });

  it('keeps the list that is left out and clears one sent empty', async () => {
    await org.put('/day_notes/2015-03-16', { notes: ['Keep me'], activities: ['Drill'] });
    const response = await org.put('/day_notes/2015-03-16', { activities: [] });
    expect(response.body).toEqual({ date: '2015-03-16', notes: ['Keep me'], activities: [] });
  });

  it('requires notes or activities and a real date', async () => {
    const empty = await org.put('/day_notes/2015-03-16', {});
    expect(empty).toBeInvalid(['The notes or activities field is required.']);
    expect((await org.put('/day_notes/2015-02-30', { notes: [] })).status).toBe(422);
  });

  it('requires a token', () => expectAuthRequired(server, 'PUT', '/day_notes/2015-03-15', { notes: [] }));
});

describe('GET /day_notes/{date}', () => {
  it('shows the notes of one date, empty lists when none; other organizations see nothing', async () => {
    await org.put('/day_notes/2015-04-01', { notes: ['April'] });
    expect((await org.get('/day_notes/2015-04-01')).body).toEqual({
      date: '2015-04-01',
      notes: ['April'],
      activities: [],
    });
    expect((await org.get('/day_notes/2015-04-02')).body).toEqual({ date: '2015-04-02', notes: [], activities: [] });
    expect((await other.get('/day_notes/2015-04-01')).body).toEqual({ date: '2015-04-01', notes: [], activities: [] });
  });

  it('requires a token', () => expectAuthRequired(server, 'GET', '/day_notes/2015-04-01'));
});

describe('GET /day_notes', () => {
  it('lists the dates of the period that have notes, in order', async () => {
    const target = await server.newOrg();
    await target.put('/day_notes/2015-05-03', { activities: ['Third'] });
    await target.put('/day_notes/2015-05-01', { notes: ['First'] });
    await target.put('/day_notes/2015-06-01', { notes: ['Outside'] });
    const response = await target.get('/day_notes', { query: { start: '2015-05-01', end: '2015-05-31' } });
    expect(response).toAnswer(200, [
      { date: '2015-05-01', notes: ['First'], activities: [] },
      { date: '2015-05-03', notes: [], activities: ['Third'] },
    ]);
  });

  it('requires a token', () => expectAuthRequired(server, 'GET', '/day_notes'));
});

describe('DELETE /day_notes/{date}', () => {
  it('removes every note and activity of the date', async () => {
    await org.put('/day_notes/2015-07-01', { notes: ['x'], activities: ['y'] });
    const response = await org.del('/day_notes/2015-07-01');
    expect(response).toAnswer(200, { date: '2015-07-01', notes: [], activities: [] });
    expect((await org.get('/day_notes/2015-07-01')).body).toEqual({ date: '2015-07-01', notes: [], activities: [] });
  });

  it('requires a token', () => expectAuthRequired(server, 'DELETE', '/day_notes/2015-07-01'));
});
