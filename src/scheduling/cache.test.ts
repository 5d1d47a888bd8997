import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import SQLite from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { buildApp } from '../app.js';
import { serializedSchedule } from '../../test/helpers/schedule-json.js';
import { startServer, type TestOrg, type TestServer, testDatabaseUrl } from '../../test/helpers/server.js';
import {
  approvedTimeOff,
  createAssignment,
  createRotation,
  placeOnRotation,
  workTypeId,
} from '../resources/rotations/test-fixtures.js';
import { createShift } from '../resources/shifts/test-fixtures.js';
import { postTimeOff } from '../resources/time-offs/test-fixtures.js';

/*
 * GET /schedule keeps what the engine computed for a period while nothing the engine reads changes
 * (cache.ts). Each test reads a period (filling the caches), writes, and reads again: the
 * second read must show the write. A cache that served the days computed before the write fails
 * them; a write the engine does not read (a day note) must leave the computed days standing.
 */

const onPostgres = Boolean(testDatabaseUrl);
let server: TestServer;
let org: TestOrg;
let stationId: number;
let memberId: number;
let recurringId: number;
let regular: number;
const day = { start: '2027-03-01 00:00:00', end: '2027-03-02 00:00:00' };

interface Shift {
  id: number;
  recurring: boolean;
  length: number;
  user: { id: number; name: string };
  labels: Array<{ label: string }>;
}
interface Day {
  date: string;
  assignments: Array<{ id: number; name: string; start: string; shifts: Shift[]; staffing: { scheduled: number } }>;
  time_off: Array<{ id: number; user: { id: number } }>;
  notes: string[];
  kelly_days?: Array<{ user: { id: number }; name: string }>;
}

async function read(period = day, as = org): Promise<Day[]> {
  const response = await as.get('/schedule', { query: period });
  expect(response.status, response.text).toBe(200);
  return response.body.days as Day[];
}
const shiftsOf = (days: Day[]) => days.flatMap((d) => d.assignments.flatMap((a) => a.shifts));
const workers = (days: Day[]) => shiftsOf(days).map((s) => s.user.name);

/** Statements one GET /schedule runs (the bearer lookup aside). */
async function statementsOf(period = day): Promise<number> {
  const before = server.queryCount();
  await read(period);
  return server.queryCount() - before;
}

let unread = 0;
/** Statements of a read the engine computes in full: a period never read before. */
function fullStatements(): Promise<number> {
  unread += 1;
  const date = new Date(Date.UTC(2030, 0, unread)).toISOString().slice(0, 10);
  return statementsOf({ start: `${date} 00:00:00`, end: `${date} 23:59:59` });
}

async function oneOffShift(userId: number, date = '2027-03-01'): Promise<number> {
  const response = await createShift(org, stationId, userId, `${date} 09:00:00`, `${date} 17:00:00`, {
    work_type_id: regular,
  });
  return response.body.id as number;
}

beforeAll(async () => {
  server = await startServer();
  org = await server.newOrg({ timezone: 'America/Chicago' });
  regular = await workTypeId(org);
  stationId = await createAssignment(org, {
    name: 'Station 5',
    start: '2027-03-01 07:00:00',
    end: '2027-03-02 07:00:00',
  });
  const rotationId = await createRotation(org, { anchor_date: '2027-03-01', preset: '24/48' });
  memberId = await org.createUser({ first_name: 'Ada', last_name: 'Member' });
  recurringId = await placeOnRotation(org, {
    user_id: memberId,
    rotation_id: rotationId,
    assignment_id: stationId,
    crew: 'A',
    start_date: '2027-03-01',
  });
});
afterAll(() => server.close());

describe('GET /schedule right after a write', () => {
  it('after a day note: shows the note, reusing the computed days (fewer statements, same assignments)', async () => {
    const full = await fullStatements();
    const first = await read();
    const note = await org.put('/day_notes/2027-03-01', { notes: ['<p>Hydrant out on 5th</p>'] });
    expect(note.status, note.text).toBe(200);
    const before = server.queryCount();
    const after = await read();
    expect(server.queryCount() - before).toBeLessThan(full);
    expect(after[0]!.notes).toEqual(['<p>Hydrant out on 5th</p>']);
    expect(after[0]!.assignments).toEqual(first[0]!.assignments);
    expect(workers(after)).toEqual(['Ada Member']);
  });

  it('after a shift is created and deleted', async () => {
    await read();
    const shiftId = await oneOffShift(await org.createUser({ first_name: 'Bo', last_name: 'Fresh' }));
    expect(workers(await read())).toContain('Bo Fresh');
    const removed = await org.del(`/shifts/${shiftId}`);
    expect(removed.status, removed.text).toBe(200);
    expect(workers(await read())).not.toContain('Bo Fresh');
  });

  it('after time off is approved: the member is off and the time off shows', async () => {
    const admin = await org.createUser({ first_name: 'Al', last_name: 'Admin', role: 'Admin' });
    const type = await org.post('/time_off_types', {
      label: 'Sick',
      work_code: 'SCK',
      primary_color: '#3f5647',
      secondary_color: '#FFFFFF',
    });
    expect([200, 201]).toContain(type.status);
    const pending = await postTimeOff(org, {
      userId: memberId,
      adminId: admin,
      start: '2027-03-01 07:00:00',
      end: '2027-03-02 07:00:00',
      typeId: type.body.id ?? type.body.time_off_type?.id,
      status: 0,
    });
    expect([200, 201], pending.text).toContain(pending.status);
    const id = (pending.body.id ?? pending.body.items?.[0]?.id) as number;
    expect(workers(await read())).toContain('Ada Member');
    const approved = await org.post(`/time_offs/${id}/approve`, { admin_id: admin });
    expect(approved.status, approved.text).toBe(200);
    const after = await read();
    expect(workers(after)).not.toContain('Ada Member');
    expect(after[0]!.time_off.map((t) => t.id)).toContain(id);
    const removed = await org.del(`/time_offs/${id}`);
    expect(removed.status, removed.text).toBe(200);
    expect(workers(await read())).toContain('Ada Member');
  });

  it('after a trade is filled: the shift shows the accepting user', async () => {
    const period = { start: '2027-03-04 00:00:00', end: '2027-03-05 00:00:00' };
    const admin = await org.createUser({ first_name: 'Tess', last_name: 'Approver', role: 'Admin' });
    const requester = await org.createUser({ first_name: 'Rex', last_name: 'Requester' });
    const taker = await org.createUser({ first_name: 'Tim', last_name: 'Taker' });
    await oneOffShift(requester, '2027-03-04');
    expect(workers(await read(period))).toContain('Rex Requester');
    const trade = await org.post('/trades', {
      requesting_user: requester,
      start: '2027-03-04 09:00:00',
      end: '2027-03-04 17:00:00',
      approving_user_id: admin,
    });
    expect(trade.status, trade.text).toBe(201);
    expect((await org.patch(`/trades/${trade.body.id}`, { action: 'accept', user_id: taker })).status).toBe(200);
    const approve = await org.patch(`/trades/${trade.body.id}`, { action: 'approve', admin_id: admin });
    expect(approve.status, approve.text).toBe(200);
    const after = workers(await read(period));
    expect(after).toContain('Tim Taker');
    expect(after).not.toContain('Rex Requester');
  });

  it('after a rotation member changes: an exception, then the end of the series', async () => {
    const period = { start: '2027-03-07 00:00:00', end: '2027-03-08 00:00:00' };
    expect(workers(await read(period))).toEqual(['Ada Member']);
    const exception = await org.post(`/recurring_shifts/${recurringId}/exceptions`, {
      date: '2027-03-07',
      action: 'remove',
    });
    expect([200, 201], exception.text).toContain(exception.status);
    expect(workers(await read(period))).toEqual([]);
    const back = await org.del(`/recurring_shifts/${recurringId}/exceptions/2027-03-07`);
    expect(back.status, back.text).toBe(200);
    expect(workers(await read(period))).toEqual(['Ada Member']);
  });

  it("after a rotation changes: its Kelly days show the rotation's new name", async () => {
    const period = { start: '2027-01-19 00:00:00', end: '2027-01-20 00:00:00' };
    const rotationId = await createRotation(org, {
      name: 'Kelly 24/48',
      anchor_date: '2027-01-01',
      preset: '24/48-kelly',
    });
    const userId = await org.createUser({ first_name: 'Kay', last_name: 'Kelly' });
    await placeOnRotation(org, {
      user_id: userId,
      rotation_id: rotationId,
      assignment_id: await createAssignment(org, { name: 'Engine 7' }),
      crew: 'A',
    });
    const kellyOf = (days: Day[]) => days[0]!.kelly_days?.find((k) => k.user.id === userId)?.name;
    expect(kellyOf(await read(period))).toBe('Kelly day');
    const renamed = await org.patch(`/rotations/${rotationId}`, { kelly_name: 'Debit day' });
    expect(renamed.status, renamed.text).toBe(200);
    expect(kellyOf(await read(period))).toBe('Debit day');
  });

  it('after an assignment changes: its new name and times', async () => {
    const period = { start: '2027-03-10 00:00:00', end: '2027-03-11 00:00:00' };
    const id = await createAssignment(org, {
      name: 'Rescue 2',
      start: '2027-03-01 08:00:00',
      end: '2027-03-01 20:00:00',
    });
    const find = (days: Day[]) => days[0]!.assignments.find((a) => a.id === id);
    expect(find(await read(period))).toMatchObject({ name: 'Rescue 2', start: '2027-03-10 08:00:00' });
    const changed = await org.patch(`/assignments/${id}`, { name: 'Rescue 3' });
    expect(changed.status, changed.text).toBe(200);
    expect(find(await read(period))).toMatchObject({ name: 'Rescue 3' });
    const removed = await org.del(`/assignments/${id}`);
    expect(removed.status, removed.text).toBe(200);
    expect(find(await read(period))).toBeUndefined();
  });

  it("after a user is renamed: the schedule names the user's shifts anew", async () => {
    await read();
    const renamed = await org.patch(`/users/${memberId}`, { first_name: 'Augusta' });
    expect(renamed.status, renamed.text).toBe(200);
    expect(workers(await read())).toEqual(['Augusta Member']);
    await org.patch(`/users/${memberId}`, { first_name: 'Ada' });
  });

  it("after the organization's time zone changes: shift lengths across DST follow it", async () => {
    // 2027-03-14: Chicago springs forward, so the 24-hour occurrence lasts 23 hours there.
    const dst = { start: '2027-03-13 00:00:00', end: '2027-03-15 00:00:00' };
    const lengths = async () =>
      shiftsOf(await read(dst))
        .filter((s) => s.user.id === memberId)
        .map((s) => s.length);
    // an operator's statement, outside any request
    const zone = (timezone: string) =>
      server.app.db.updateTable('organization').set({ timezone }).where('id', '=', org.orgId).execute();
    expect(await lengths()).toEqual([23]);
    try {
      await zone('UTC');
      expect(await lengths()).toEqual([24]);
    } finally {
      await zone('America/Chicago');
    }
    expect(await lengths()).toEqual([23]);
  });

  it('after the work period changes: the engine computes the days again', async () => {
    const full = await fullStatements();
    await read();
    await org.put('/day_notes/2027-03-01', { notes: ['<p>again</p>'] });
    expect(await statementsOf()).toBeLessThan(full);
    const changed = await org.patch('/work_period', { days: 7, threshold_hours: 40 });
    expect(changed.status, changed.text).toBe(200);
    expect(await statementsOf()).toBe(full);
  });

  it('after a write by another server process on the same database', async () => {
    await read();
    // A second process: its own app and database connection (and, on PostgreSQL, its own listener).
    const other: FastifyInstance = await buildApp(server.config, { logger: false, migrate: false });
    try {
      const userId = await org.createUser({ first_name: 'Olga', last_name: 'Elsewhere' });
      expect(workers(await read())).not.toContain('Olga Elsewhere');
      const created = await other.inject({
        method: 'POST',
        url: '/v1/shifts',
        headers: { authorization: `Bearer ${org.token}`, 'content-type': 'application/json' },
        payload: {
          assignment_id: stationId,
          user_id: userId,
          date: '2027-03-01',
          start: '2027-03-01 09:00:00',
          end: '2027-03-01 17:00:00',
          work_type_id: regular,
        },
      });
      expect(created.statusCode, created.body).toBe(201);
      expect(workers(await read())).toContain('Olga Elsewhere');
      if (!onPostgres) {
        // SQLite: a write outside any request (an operator's statement) on the other connection. (On
        // PostgreSQL such a write does not raise the organization's revision, which the response
        // cache rests on: CLI commands raise it themselves.)
        await sql`update shift set user_id = ${memberId} where id = ${created.json().id}`.execute(other.db);
        expect(workers(await read())).not.toContain('Olga Elsewhere');
      }
    } finally {
      await other.close();
    }
  });

  it.skipIf(onPostgres)(
    "SQLite: after a write by a connection of another tool, which has none of the app's functions",
    async () => {
      const [before] = await read();
      expect(before!.assignments[0]!.name).toBe('Station 5');
      // the `sqlite3` shell or any tool: a plain better-sqlite3 connection, nothing registered
      const outside = new SQLite(server.config.sqlitePath);
      try {
        outside.pragma('busy_timeout = 5000');
        const changed = outside
          .prepare('update assignment set name = ? where id = ? and organization_id = ?')
          .run('Station 5 (outside)', stationId, org.orgId);
        expect(changed.changes).toBe(1);
      } finally {
        outside.close();
      }
      const [after] = await read();
      expect(after!.assignments[0]!.name).toBe('Station 5 (outside)');
      // and a statement on the app's own connection outside any request (data_version stays put)
      await sql`update assignment set name = ${'Station 5 (inside)'} where id = ${stationId}`.execute(server.app.db);
      const [inside] = await read();
      expect(inside!.assignments[0]!.name).toBe('Station 5 (inside)');
      const restored = await org.patch(`/assignments/${stationId}`, { name: 'Station 5' });
      expect(restored.status, restored.text).toBe(200);
    },
  );

  it('keeps organizations apart: a write in one leaves the other computed', async () => {
    const stranger = await server.newOrg({ timezone: 'America/Chicago' });
    await read();
    await read(day, stranger);
    const full = await fullStatements();
    await org.put('/day_notes/2027-03-01', { notes: ['<p>kept</p>'] });
    expect(await statementsOf()).toBeLessThan(full);
    await stranger.post('/shifts', {}); // refused (422): writes nothing
    await stranger.createUser({ first_name: 'Far', last_name: 'Away' });
    await org.put('/day_notes/2027-03-01', { notes: ['<p>kept again</p>'] });
    expect(await statementsOf()).toBeLessThan(full);
  });
});

describe("GET /schedule patched after a user's shifts or time off change", () => {
  const week = { start: '2027-03-01 00:00:00', end: '2027-03-08 00:00:00' };

  it('answers what a server computing afresh answers, reading only the users changed', async () => {
    // a second app on the same database that keeps nothing: the period computed in full every time
    const fresh: FastifyInstance = await buildApp(
      { ...server.config, responseCacheBytes: 0 },
      { logger: false, migrate: false },
    );
    const afresh = async () => {
      const response = await fresh.inject({
        method: 'GET',
        url: `/v1/schedule?start=${encodeURIComponent(week.start)}&end=${encodeURIComponent(week.end)}`,
        headers: { authorization: `Bearer ${org.token}`, host: new URL(server.url).host },
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.json().days as Day[];
    };
    try {
      const admin = await org.createUser({ first_name: 'Pat', last_name: 'Chief', role: 'Admin' });
      const other = await org.createUser({ first_name: 'Cy', last_name: 'Second' });
      const type = await org.post('/time_off_types', { label: 'Leave (patch)', work_code: 'LV' });
      expect(type.status, type.text).toBe(201);
      const overtime = await org.post('/work_types', { label: 'Overtime (patch)', work_code: 'OT' });
      expect(overtime.status, overtime.text).toBe(201);
      const stranger = await server.newOrg({ timezone: 'America/Chicago' });
      const full = await fullStatements();
      await read(week);
      const steps: Array<[string, () => Promise<{ status: number; text: string }>]> = [
        ['a one-off shift for the rotation member', () => org.post('/shifts', shiftOn(memberId, '2027-03-02'))],
        ['a shift for a user the period did not name', () => org.post('/shifts', shiftOn(other, '2027-03-04'))],
        ['a shift in another organization', () => stranger.post('/shifts', {})],
        ['time off over part of a rotation shift', () => org.post('/time_offs', leave(memberId, '2027-03-04'))],
        [
          'the shift moved to another day, with a work type the period did not use',
          async () =>
            org.patch(`/shifts/${await lastShift(other)}`, {
              date: '2027-03-06',
              start: '2027-03-06 08:00:00',
              end: '2027-03-06 20:00:00',
              work_type_id: overtime.body.id,
            }),
        ],
        [
          'the shift given to another user',
          async () =>
            org.patch(`/shifts/${await lastShift(other)}`, {
              user_id: memberId,
              date: '2027-03-06',
              start: '2027-03-06 08:00:00',
              end: '2027-03-06 20:00:00',
              force: true,
            }),
        ],
        [
          'time off for a day off, then a shift deleted',
          async () => {
            await org.post('/time_offs', leave(other, '2027-03-05'));
            return org.del(`/shifts/${await lastShift(memberId)}`);
          },
        ],
        [
          'a shift with a label moved (its tags read beside the engine, not after it)',
          async () => {
            const shiftId = await lastShift(memberId);
            const label = await org.post('/labels', { label: 'PATCH', color: '#CCCCCC', text_color: '#333333' });
            expect((await org.post(`/shifts/${shiftId}/labels`, [label.body.id])).status).toBe(200);
            // labels are not a user's change: the period is computed anew, then patched for the move
            await read(week);
            return org.patch(`/shifts/${shiftId}`, {
              date: '2027-03-06',
              start: '2027-03-06 09:00:00',
              end: '2027-03-06 21:00:00',
              force: true,
            });
          },
        ],
      ];
      for (const [what, write] of steps) {
        const done = await write();
        // the other organization's write is refused (422), and writes nothing
        expect(done.status, `${what}: ${done.text}`).toBeOneOf(
          what.includes('another organization') ? [422] : [200, 201, 204],
        );
        const before = server.queryCount();
        const patched = await read(week);
        const statements = server.queryCount() - before;
        expect(patched, what).toEqual(await afresh());
        expect(statements, `${what}: statements of the patched read`).toBeLessThan(full);
      }
      const shown = shiftsOf(await read(week));
      expect(shown.filter((s) => s.labels.some((l) => l.label === 'PATCH'))).toHaveLength(1);
      expect(shown.filter((s) => s.user.name === 'Ada Member' && !s.recurring).length).toBeGreaterThan(0);
      expect((await read(week)).some((d) => d.time_off.some((t) => t.user.id === memberId))).toBe(true);

      function shiftOn(userId: number, date: string) {
        return {
          assignment_id: stationId,
          user_id: userId,
          date,
          start: `${date} 10:00:00`,
          end: `${date} 14:00:00`,
          work_type_id: regular,
          admin_id: admin,
          force: true,
        };
      }
      function leave(userId: number, date: string) {
        return {
          user_id: userId,
          admin_ids: [admin],
          start_date: `${date} 12:00:00`,
          end_date: `${date} 18:00:00`,
          time_off_type_id: type.body.id,
          status: 1,
        };
      }
    } finally {
      await fresh.close();
    }
  });
});

/** The newest one-off shift of the user in March 2027. */
async function lastShift(userId: number): Promise<number> {
  const response = await org.get('/shifts', {
    query: { user_id: String(userId), start: '2027-03-01 00:00:00', end: '2027-04-01 00:00:00' },
  });
  expect(response.status, response.text).toBe(200);
  const items = (response.body.items ?? response.body) as Array<{ id: number }>;
  return Math.max(...items.map((s) => s.id));
}

describe('GET /schedule through the computed days', () => {
  it('writes the same JSON as the response serializer: a month with shifts, time off and notes', async () => {
    const admin = await org.createUser({ first_name: 'Ed', last_name: 'Admin', role: 'Admin' });
    await approvedTimeOff(org, memberId, admin, '2027-03-19 07:00:00', '2027-03-20 07:00:00');
    await org.put('/day_notes/2027-03-20', { notes: ['<p>a "quoted" note</p>'], activities: ['<p>drill</p>'] });
    const month = { start: '2027-03-01 00:00:00', end: '2027-04-01 00:00:00' };
    const response = await org.get('/schedule', { query: month });
    expect(response.status).toBe(200);
    // the bytes are what JSON.stringify writes for the parsed value: no property twice, none misplaced
    expect(response.text).toBe(JSON.stringify(JSON.parse(response.text)));
    expect(response.text).toBe(serializedSchedule(response.body));
    const days = response.body.days as Day[];
    expect(days).toHaveLength(31);
    expect(days.map((d) => Object.keys(d).slice(0, 8))).toEqual(
      days.map(() => ['date', 'assignments', 'time_off', 'callbacks', 'trades', 'misc', 'notes', 'activities']),
    );
    expect(Object.keys(response.body)).toEqual(['start', 'end', 'days', 'prev', 'next']);
    expect(days.find((d) => d.date === '2027-03-19')!.time_off).toHaveLength(1);
    expect(days.find((d) => d.date === '2027-03-20')!.notes).toEqual(['<p>a "quoted" note</p>']);
  });
});
