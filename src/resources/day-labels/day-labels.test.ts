import { Temporal } from 'temporal-polyfill';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAuthRequired } from '../../../test/helpers/common.js';
import { startServer, type TestOrg, type TestServer } from '../../../test/helpers/server.js';

let server: TestServer;
let org: TestOrg;
let other: TestOrg;

beforeAll(async () => {
  server = await startServer();
  org = await server.newOrg({ timezone: 'Pacific/Kiritimati' });
  other = await server.newOrg();
});
afterAll(() => server.close());

describe('PUT /day_labels/{date} (extension)', () => {
  it('sets and replaces the label of a date', async () => {
    const response = await org.put('/day_labels/2019-10-01', { label: 'A Shift', color: '#00acc1' });
    expect(response).toSucceed(200, 'Set the day label of 2019-10-01.', {
      date: '2019-10-01',
    });
    await org.put('/day_labels/2019-10-01', { label: 'C Shift', color: '#00acc1' });
    await org.put('/day_labels/2019-10-02', { label: 'B Shift', color: '#753254' });
    await org.put('/day_labels/2019-10-04', { label: 'A Shift', color: '#111111' });
  });

  it('refuses bad dates, colors and missing fields', async () => {
    expect((await org.put('/day_labels/2019-02-30', { label: 'X', color: '#000000' })).status).toBe(422);
    expect((await org.put('/day_labels/2019-10-01', { label: 'X', color: 'blue' })).status).toBe(422);
    expect((await org.put('/day_labels/2019-10-01', { color: '#000000' })).status).toBe(422);
  });

  it('requires a token', () =>
    expectAuthRequired(server, 'PUT', '/day_labels/2019-10-01', { label: 'X', color: '#000000' }));
});

describe('GET /day_labels', () => {
  it('returns the labelled dates of the period keyed by date', async () => {
    const response = await org.get('/day_labels', { query: { start: '2019-10-01', end: '2019-10-03' } });
    expect(response).toAnswer(200, {
      days: {
        '2019-10-01': { color: '#00acc1', label: 'C Shift' },
        '2019-10-02': { color: '#753254', label: 'B Shift' },
      },
    });
    expect((await other.get('/day_labels', { query: { start: '2019-10-01', end: '2019-10-03' } })).body).toEqual({
      days: {},
    });
  });

  it('defaults to today in the organization zone', async () => {
    const today = Temporal.Now.plainDateISO('Pacific/Kiritimati').toString();
    await org.put(`/day_labels/${today}`, { label: 'Today', color: '#123456' });
    const response = await org.get('/day_labels');
    expect(response.body).toEqual({ days: { [today]: { color: '#123456', label: 'Today' } } });
  });

  it('refuses an end before the start and periods over a year', async () => {
    expect(await org.get('/day_labels', { query: { start: '2019-10-03', end: '2019-10-01' } })).toBeInvalid([
      'The end must be after the start.',
    ]);
    expect((await org.get('/day_labels', { query: { start: '2019-01-01', end: '2021-01-01' } })).status).toBe(422);
    expect((await org.get('/day_labels', { query: { start: 'yesterday' } })).status).toBe(422);
  });

  it('requires a token', () => expectAuthRequired(server, 'GET', '/day_labels'));
});

describe('DELETE /day_labels/{date} (extension)', () => {
  it('removes the label of a date and logs it', async () => {
    const response = await org.del('/day_labels/2019-10-04');
    expect(response).toSucceed(200, 'Removed the day label of 2019-10-04.');
    expect((await org.get('/day_labels', { query: { start: '2019-10-04', end: '2019-10-04' } })).body).toEqual({
      days: {},
    });
    expect((await org.get('/logs')).body.data[0].event_description).toMatch(
      /removed the day label A Shift of 2019-10-04$/,
    );
  });

  it('answers 404 when the date has no label, also for another organization', async () => {
    expect(await org.del('/day_labels/2019-10-04')).toBeNotFound('DayLabel');
    expect((await other.del('/day_labels/2019-10-01')).status).toBe(404);
  });
});
