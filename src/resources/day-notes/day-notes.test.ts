import { describe, expect, it } from 'vitest';
import { expectAuthRequired, expectNotFoundForOtherOrg } from '../../../test/helpers/common.js';
import { useOrgs } from '../../../test/helpers/server.js';
import { createCredential } from '../../core/auth/credentials.js';

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

/** A token of a second API client of `org`. */
async function secondToken(): Promise<string> {
  const credential = await createCredential(server.app.db, server.config.secretKey, org.orgId);
  const response = await server.request<{ access_token: string }>('POST', '/oauth/access_token', {
    body: {
      grant_type: 'client_credentials',
      client_id: credential.client_id,
      client_secret: credential.client_secret,
    },
    form: true,
  });
  return response.body.access_token;
}

describe('day note entries by id (extension)', () => {
  const entry = (id: number, date: string, html: string, position: number, kind = 'note') => ({
    id,
    date,
    kind,
    html,
    position,
  });

  it('POST adds one note after the others, sanitized; GET lists them with their ids, notes first', async () => {
    await org.put('/day_notes/2016-01-10', { notes: ['First'], activities: ['Drill'] });
    const added = await org.post('/day_notes/2016-01-10/entries', { html: 'Engine 2 <b>back</b><script>x()</script>' });
    const id = added.body.entry?.id as number;
    expect(added).toSucceed(201, `Note #${id} added to 2016-01-10`, {
      entry: entry(id, '2016-01-10', 'Engine 2 <b>back</b>', 1),
    });
    const activity = await org.post('/day_notes/2016-01-10/entries', { html: 'Hose test', kind: 'activity' });
    expect(activity.body.entry).toMatchObject({ kind: 'activity', position: 1 });
    const listed = await org.get('/day_notes/2016-01-10/entries');
    expect(listed.status).toBe(200);
    expect(listed.body.map((e: { html: string }) => e.html)).toEqual([
      'First',
      'Engine 2 <b>back</b>',
      'Drill',
      'Hose test',
    ]);
    expect((await org.get('/day_notes/2016-01-10')).body.notes).toEqual(['First', 'Engine 2 <b>back</b>']);
    const logs = await org.get('/logs');
    expect(logs.body.data[0].event_description).toMatch(/added an activity to 2016-01-10\.$/);
    expect(logs.body.data[1].event_description).toMatch(/added a note to 2016-01-10\.$/);
  });

  it('PATCH changes one note by its id and DELETE removes one; the others stay', async () => {
    const ids: number[] = [];
    for (const html of ['One', 'Two', 'Three'])
      ids.push((await org.post('/day_notes/2016-01-11/entries', { html })).body.entry.id);
    const changed = await org.patch(`/day_notes/2016-01-11/entries/${ids[1]}`, { html: '<i>Two, later</i>' });
    expect(changed).toSucceed(200, `Note #${ids[1]} of 2016-01-11 changed`, {
      entry: entry(ids[1]!, '2016-01-11', '<i>Two, later</i>', 1),
    });
    expect((await org.get('/logs')).body.data[0].event_description).toMatch(/changed a note of 2016-01-11\.$/);
    const removed = await org.del(`/day_notes/2016-01-11/entries/${ids[0]}`);
    expect(removed).toSucceed(200, `Note #${ids[0]} of 2016-01-11 removed`, { id: ids[0] });
    expect((await org.get('/logs')).body.data[0].event_description).toMatch(/removed a note of 2016-01-11\.$/);
    expect((await org.get('/day_notes/2016-01-11')).body.notes).toEqual(['<i>Two, later</i>', 'Three']);
    expect((await org.del(`/day_notes/2016-01-11/entries/${ids[0]}`)).status).toBe(404);
  });

  it('answers 404 for an id of another date, of another organization or of nothing', async () => {
    const id = (await org.post('/day_notes/2016-01-12/entries', { html: 'Mine' })).body.entry.id as number;
    expect((await org.patch(`/day_notes/2016-01-13/entries/${id}`, { html: 'x' })).status).toBe(404);
    expect((await org.del(`/day_notes/2016-01-13/entries/${id}`)).status).toBe(404);
    await expectNotFoundForOtherOrg(other, 'PATCH', `/day_notes/2016-01-12/entries/${id}`, { html: 'x' });
    await expectNotFoundForOtherOrg(other, 'DELETE', `/day_notes/2016-01-12/entries/${id}`);
    expect((await other.get('/day_notes/2016-01-12/entries')).body).toEqual([]);
    expect((await org.patch('/day_notes/2016-01-12/entries/999999', { html: 'x' })).status).toBe(404);
    expect((await org.get('/day_notes/2016-01-12')).body.notes).toEqual(['Mine']);
  });

  it('refuses a missing, empty or only-markup note and an unknown kind, in words', async () => {
    const missing = await org.post('/day_notes/2016-01-14/entries', {});
    expect(missing.status).toBe(422);
    expect(JSON.stringify(missing.body.error_message)).toMatch(/html/);
    const kind = await org.post('/day_notes/2016-01-14/entries', { html: 'x', kind: 'memo' });
    expect(kind.status).toBe(422);
    expect(JSON.stringify(kind.body.error_message)).toMatch(/kind/);
    expect((await org.post('/day_notes/2016-01-14/entries', { html: '' })).status).toBe(422);
    const markup = await org.post('/day_notes/2016-01-14/entries', { html: '<script>alert(1)</script>' });
    expect(markup).toBeInvalid(['The html field is empty once sanitized: write the note as text or HTML.']);
    expect((await org.get('/day_notes/2016-01-14/entries')).body).toEqual([]);
  });

  it('keeps both notes when two admins edit two notes of one day at once, and every note added at once', async () => {
    // two API clients of the organization, as two admins' sessions would be
    const admins = [org.token, await secondToken()].map(
      (token) => (path: string, body: unknown) => server.request('PATCH', path, { token, body }),
    );
    const [first, second] = await Promise.all(
      ['Admin A', 'Admin B'].map(
        async (html) => (await org.post('/day_notes/2016-01-15/entries', { html })).body.entry.id,
      ),
    );
    for (let round = 0; round < 8; round += 1) {
      const answers = await Promise.all([
        admins[0]!(`/day_notes/2016-01-15/entries/${first}`, { html: `A, round ${round}` }),
        admins[1]!(`/day_notes/2016-01-15/entries/${second}`, { html: `B, round ${round}` }),
      ]);
      expect(answers.map((a) => a.status)).toEqual([200, 200]);
      const notes = (await org.get('/day_notes/2016-01-15')).body.notes as string[];
      expect(notes.toSorted()).toEqual([`A, round ${round}`, `B, round ${round}`]);
    }
    const added = await Promise.all(
      Array.from({ length: 10 }, (_, i) => org.post('/day_notes/2016-01-15/entries', { html: `Added ${i}` })),
    );
    expect(added.map((a) => a.status)).toEqual(Array(10).fill(201));
    const notes = (await org.get('/day_notes/2016-01-15')).body.notes as string[];
    expect(notes.toSorted()).toEqual(
      ['A, round 7', 'B, round 7', ...Array.from({ length: 10 }, (_, i) => `Added ${i}`)].toSorted(),
    );
  });

  it('requires a token', async () => {
    await expectAuthRequired(server, 'GET', '/day_notes/2016-01-16/entries');
    await expectAuthRequired(server, 'POST', '/day_notes/2016-01-16/entries', { html: 'x' });
    await expectAuthRequired(server, 'PATCH', '/day_notes/2016-01-16/entries/1', { html: 'x' });
    await expectAuthRequired(server, 'DELETE', '/day_notes/2016-01-16/entries/1');
  });
});
