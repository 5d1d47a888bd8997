import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { startServer, type TestOrg, type TestServer } from '../helpers/server.js';
import {
  approvedTimeOff,
  createAssignment,
  createRotation,
  placeOnRotation,
  workTypeId,
} from '../../src/resources/rotations/test-fixtures.js';

let server: TestServer;
let org: TestOrg;
let stationId: number;
let userId: number;
const period = { start: '2027-03-01 00:00:00', end: '2027-03-02 00:00:00' };

interface ScheduleBody {
  days: Array<{ assignments: Array<{ shifts: Array<{ id: number; recurring: boolean; user: { name: string } }> }> }>;
}
const shiftsOf = (body: ScheduleBody) => body.days.flatMap((d) => d.assignments.flatMap((a) => a.shifts));

beforeAll(async () => {
  server = await startServer();
  org = await server.newOrg({ timezone: 'America/Chicago' });
  stationId = await createAssignment(org, {
    name: 'Station 9',
    start: '2027-03-01 07:00:00',
    end: '2027-03-02 07:00:00',
  });
  const rotationId = await createRotation(org, { anchor_date: '2027-03-01', preset: '24/48' });
  userId = await org.createUser({ first_name: 'Ada', last_name: 'Cached' });
  await placeOnRotation(org, { user_id: userId, rotation_id: rotationId, assignment_id: stationId, crew: 'A' });
});
afterAll(() => server.close());

describe('GET /schedule served from the response cache', () => {
  it('answers a repeated request without running a statement beyond the token check, with the same bytes', async () => {
    const first = await org.get('/schedule', { query: period });
    expect(first.status).toBe(200);
    expect(shiftsOf(first.body)).toHaveLength(1);
    const before = server.queryCount();
    const second = await org.get('/schedule', { query: period });
    expect(server.queryCount() - before).toBe(0);
    expect(second.text).toBe(first.text);
    expect(second.headers.get('content-type')).toBe('application/json; charset=utf-8');
  });

  it('shows a change made through the API at once', async () => {
    await org.get('/schedule', { query: period });
    const created = await org.post('/shifts', {
      assignment_id: await createAssignment(org, {
        name: 'Rescue 9',
        start: '2027-03-01 09:00:00',
        end: '2027-03-01 17:00:00',
      }),
      user_id: await org.createUser({ first_name: 'Bo', last_name: 'Fresh' }),
      date: '2027-03-01',
      start: '2027-03-01 09:00:00',
      end: '2027-03-01 17:00:00',
      work_type_id: await workTypeId(org),
    });
    expect(created.status, created.text).toBe(201);
    const after = await org.get('/schedule', { query: period });
    expect(shiftsOf(after.body).map((s) => s.user.name)).toContain('Bo Fresh');
  });

  it('shows a change another server process made on the same database', async () => {
    await org.get('/schedule', { query: period });
    // A second process: its own app and database connection, so this process's write count does not move.
    const other: FastifyInstance = await buildApp(server.config, { logger: false, migrate: false });
    try {
      const renamed = await other.inject({
        method: 'PATCH',
        url: `/v1/users/${userId}`,
        headers: { authorization: `Bearer ${org.token}`, 'content-type': 'application/json' },
        payload: { first_name: 'Grace' },
      });
      expect(renamed.statusCode, renamed.body).toBe(200);
    } finally {
      await other.close();
    }
    const after = await org.get('/schedule', { query: period });
    expect(shiftsOf(after.body).map((s) => s.user.name)).toContain('Grace Cached');
  });

  it('keeps each base URL and period apart', async () => {
    const day = await org.get('/schedule', { query: period });
    const twoDays = await org.get('/schedule', { query: { start: period.start, end: '2027-03-03 00:00:00' } });
    expect(twoDays.body.days).toHaveLength(2);
    const proxied = await server.app.inject({
      method: 'GET',
      url: '/v1/schedule',
      query: period,
      headers: { host: 'schedule.example.test', authorization: `Bearer ${org.token}` },
    });
    expect(proxied.json().next.href.startsWith('http://schedule.example.test/v1/schedule')).toBe(true);
    expect(day.body.next.href.startsWith(server.url)).toBe(true);
  });

  it('does not keep an error', async () => {
    const bad = await org.get('/schedule', { query: { start: period.end, end: period.start } });
    expect(bad.status).toBe(422);
    const again = await org.get('/schedule', { query: { start: period.end, end: period.start } });
    expect(again.status).toBe(422);
  });
});

describe('GET /time_offs served from the response cache', () => {
  const month = { start: '2027-03-01 00:00:00', end: '2027-04-01 00:00:00' };

  it('answers a repeated page without a statement, and shows new time off at once', async () => {
    const first = await org.get('/time_offs', { query: month });
    expect(first.status, first.text).toBe(200);
    const before = server.queryCount();
    const again = await org.get('/time_offs', { query: month });
    expect(server.queryCount() - before).toBe(0);
    expect(again.text).toBe(first.text);

    const admin = await org.createUser({ first_name: 'Ad', last_name: 'Min' });
    const id = await approvedTimeOff(org, userId, admin, '2027-03-04 00:00:00', '2027-03-05 00:00:00');
    const after = await org.get('/time_offs', { query: month });
    expect(after.body.items.map((item: { id: number }) => item.id)).toContain(id);
  });
});

describe('GET /users served from the response cache', () => {
  it('answers a repeated list without a statement, shows a change at once, and keeps filters apart', async () => {
    const first = await org.get('/users');
    const before = server.queryCount();
    const again = await org.get('/users');
    expect(server.queryCount() - before).toBe(0);
    expect(again.text).toBe(first.text);

    const id = await org.createUser({ first_name: 'Newly', last_name: 'Listed', employee_id: 'E-77' });
    const after = await org.get('/users');
    expect(after.body.map((u: { user_id: number }) => u.user_id)).toContain(id);
    const filtered = await org.get('/users', { query: { employee_id: 'E-77' } });
    expect(filtered.body.map((u: { user_id: number }) => u.user_id)).toEqual([id]);
    const empty = await org.get('/users', { query: { employee_id: '' } });
    expect(empty.body).toEqual([]);
  });
});

describe('GET /users/{id} served from the response cache', () => {
  it('answers a repeated read without a statement, shows a change at once, and keeps users and organizations apart', async () => {
    const otherId = await org.createUser({ first_name: 'Other', last_name: 'Member' });
    const first = await org.get(`/users/${userId}`);
    expect(first.body.user_id).toBe(userId);
    const before = server.queryCount();
    const again = await org.get(`/users/${userId}`);
    expect(server.queryCount() - before).toBe(0);
    expect(again.text).toBe(first.text);

    const changed = await org.patch(`/users/${userId}`, { first_name: 'Augusta' });
    expect(changed.status, changed.text).toBe(200);
    const after = await org.get(`/users/${userId}`);
    expect(after.body.first_name).toBe('Augusta');
    expect((await org.get(`/users/${otherId}`)).body.first_name).toBe('Other');

    const stranger = await server.newOrg();
    expect((await stranger.get(`/users/${userId}`)).status).toBe(404);
  });
});
