import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testDatabaseUrl, type TestOrg, type TestServer } from '../../test/helpers/server.js';
import {
  approvedTimeOff,
  createAssignment,
  createRotation,
  placeOnRotation,
  workTypeId,
} from '../resources/rotations/test-fixtures.js';
import { createShift } from '../resources/shifts/test-fixtures.js';
import { WATCHED_TABLES } from './cache.js';

/*
 * The engine cache (cache.ts) serves what the engine computed until a watched table changes. A
 * table the engine reads that is not watched would let it serve stale answers without any test
 * noticing, so this test reads the query log: each request runs once computing (a period never
 * read) and once served from the engine cache (after a write the engine does not read, which
 * only the response cache heeds). What the second run no longer reads is what the cache holds:
 * every table those statements read must be watched, and every watched table must have the
 * triggers that tell the cache of its changes (migrations 1000, 1100, 1120).
 */

let server: TestServer;
let org: TestOrg;
let stationId: number;
const onPostgres = Boolean(testDatabaseUrl);

/** The SQL texts of the statements run while `run` runs. */
async function statementsOf(run: () => Promise<void>): Promise<string[]> {
  const texts: string[] = [];
  const listener = (text: string) => texts.push(text);
  server.app.dbHandle.queryLog.add(listener);
  try {
    await run();
  } finally {
    server.app.dbHandle.queryLog.delete(listener);
  }
  return texts;
}

/** The statements of `miss` that `hit` does not run again (counted: a text run twice and once again is one). */
function cachedStatements(miss: string[], hit: string[]): string[] {
  const left = new Map<string, number>();
  for (const text of hit) left.set(text, (left.get(text) ?? 0) + 1);
  return miss.filter((text) => {
    const count = left.get(text) ?? 0;
    if (count > 0) left.set(text, count - 1);
    return count === 0;
  });
}

let tables: Set<string>;
/** The database's tables that a statement names after `from` or `join`. */
function tablesOf(statements: string[]): string[] {
  const named = statements.flatMap((text) =>
    [...text.matchAll(/\b(?:from|join)\s+"?([a-z_][a-z0-9_]*)"?/gi)].map((m) => m[1]!.toLowerCase()),
  );
  return [...new Set(named.filter((name) => tables.has(name)))].sort();
}

/** Tables and the writes their triggers tell the engine cache of (insert, update, delete). */
async function triggeredWrites(): Promise<Map<string, Set<string>>> {
  const rows = onPostgres
    ? (
        await sql<{ table: string; event: string }>`
          select event_object_table as "table", lower(event_manipulation) as event from information_schema.triggers
          where trigger_schema = current_schema() and action_statement like '%crewplan_notify_schedule%'`.execute(
          server.app.db,
        )
      ).rows
    : (
        await sql<{ table: string; event: string }>`
          select tbl_name as "table", lower(substr(name, length(tbl_name) + 11)) as event from sqlite_master
          where type = 'trigger' and (sql like '%schedule_change%' or sql like '%schedule_user_change%')`.execute(
          server.app.db,
        )
      ).rows;
  const writes = new Map<string, Set<string>>();
  for (const { table, event } of rows) writes.set(table, (writes.get(table) ?? new Set()).add(event));
  return writes;
}

let unread = 0;
/** A day never read before: the engine computes it. */
function freshDay(): string {
  unread += 1;
  return new Date(Date.UTC(2027, 2, unread)).toISOString().slice(0, 10);
}

/** The tables the request reads only when the engine computes; the request is run twice. */
async function tablesKeptBy(request: (date: string) => Promise<void>): Promise<string[]> {
  const date = freshDay();
  const miss = await statementsOf(() => request(date));
  // a write outside the engine's tables: the response cache computes again, the engine cache holds
  const note = await org.put(`/day_notes/${date}`, { notes: [`<p>read ${date}</p>`] });
  expect(note.status, note.text).toBe(200);
  const hit = await statementsOf(() => request(date));
  const kept = cachedStatements(miss, hit);
  expect(kept.length, 'the engine cache served the second run').toBeGreaterThan(0);
  return tablesOf(kept);
}

const ok = async (path: string, query: Record<string, string | number>) => {
  const response = await org.get(path, { query });
  expect(response.status, response.text).toBe(200);
};

beforeAll(async () => {
  server = await startServer();
  tables = new Set(
    onPostgres
      ? (
          await sql<{ name: string }>`select table_name as name from information_schema.tables
            where table_schema = current_schema()`.execute(server.app.db)
        ).rows.map((r) => r.name)
      : (
          await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(server.app.db)
        ).rows.map((r) => r.name),
  );
  org = await server.newOrg({ timezone: 'America/Chicago' });
  const regular = await workTypeId(org);
  stationId = await createAssignment(org, {
    name: 'Station 9',
    start: '2027-03-01 07:00:00',
    end: '2027-03-02 07:00:00',
    positions_to_fill: 3,
  });
  // a station with a group minimum: the engine reads the group tables (migration 1660)
  const groupId = Number((await org.post('/assignment_groups', { name: 'Station 9', color: '#00aa00' })).body.id);
  expect((await org.put(`/assignments/${stationId}/groups`, { ids: [groupId] })).status).toBe(200);
  expect((await org.put(`/group_minimums/${groupId}`, { min_on_duty: 4 })).status).toBe(200);
  const rotationId = await createRotation(org, { anchor_date: '2027-03-01', preset: '24/48' });
  const admin = await org.createUser({ first_name: 'Ann', last_name: 'Admin' });
  for (const crew of ['A', 'B', 'C']) {
    const userId = await org.createUser({ first_name: crew, last_name: 'Member' });
    await placeOnRotation(org, { user_id: userId, rotation_id: rotationId, assignment_id: stationId, crew });
    await approvedTimeOff(org, userId, admin, '2027-03-05 07:00:00', '2027-03-06 07:00:00');
  }
  await createShift(org, stationId, admin, '2027-03-01 09:00:00', '2027-03-01 17:00:00', { work_type_id: regular });
});
afterAll(() => server.close());

describe('the engine cache watches every table the engine reads', () => {
  it('each watched table has triggers that tell the cache of every write to it', async () => {
    const writes = await triggeredWrites();
    for (const table of WATCHED_TABLES) {
      const expected = table === 'organization' ? ['update'] : ['delete', 'insert', 'update'];
      expect([...(writes.get(table) ?? [])].sort(), `${table}'s triggers`).toEqual(expected);
    }
  });

  it('GET /schedule: every table read only when computing is watched', async () => {
    const kept = await tablesKeptBy((date) => ok('/schedule', { start: `${date} 00:00:00`, end: `${date} 23:59:59` }));
    expect(kept).toContain('recurring_shift');
    expect(kept).toContain('group_minimum');
    expect(kept.filter((table) => !WATCHED_TABLES.includes(table))).toEqual([]);
  });

  it('GET /vacancies: every table read only when computing is watched', async () => {
    const kept = await tablesKeptBy((date) => ok('/vacancies', { start: `${date} 00:00:00`, end: `${date} 23:59:59` }));
    expect(kept).toContain('recurring_shift');
    expect(kept).toContain('assignment_group_member');
    expect(kept.filter((table) => !WATCHED_TABLES.includes(table))).toEqual([]);
  });

  it('GET /vacancies/candidates: every table read only when computing is watched', async () => {
    const kept = await tablesKeptBy((date) => ok('/vacancies/candidates', { assignment_id: stationId, date }));
    expect(kept).toContain('assignment');
    expect(kept.filter((table) => !WATCHED_TABLES.includes(table))).toEqual([]);
  });
});
