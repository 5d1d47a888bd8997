import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../test/helpers/server.js';
import { tableColumns, type ColumnInfo } from './catalog.js';
import { exportedTables } from './export.js';
import { EXPORTED, NOT_EXPORTED, REFERENCE_LIKE } from './tables.js';

describe('organization export coverage of the migrated schema', () => {
  let server: TestServer;
  let columns: Map<string, ColumnInfo[]>;

  beforeAll(async () => {
    server = await startServer();
    columns = await tableColumns(server.app.db);
  });
  afterAll(() => server?.close());

  it('classifies every table with organization_id as exported or left out', () => {
    const tenant = [...columns]
      .filter(([, cols]) => cols.some((c) => c.name === 'organization_id'))
      .map(([name]) => name);
    expect(tenant.length).toBeGreaterThan(50);
    expect(tenant.filter((name) => !(name in EXPORTED) && !(name in NOT_EXPORTED))).toEqual([]);
    expect(exportedTables(columns)).toEqual(Object.keys(EXPORTED).sort());
  });

  it('names only tables and columns the schema has', () => {
    for (const [table, policy] of Object.entries(EXPORTED)) {
      const names = (columns.get(table) ?? []).map((c) => c.name);
      const named = [
        ...Object.keys(policy.refs ?? {}),
        ...Object.keys(policy.remap ?? {}),
        ...Object.keys(policy.reset ?? {}),
        ...(policy.external ?? []),
      ];
      expect(
        named.filter((column) => !names.includes(column)),
        table,
      ).toEqual([]);
      for (const target of Object.values(policy.refs ?? {}))
        expect(EXPORTED, `${table} refers to ${target}`).toHaveProperty(target);
    }
    for (const table of Object.keys(NOT_EXPORTED)) expect(columns.has(table), table).toBe(true);
  });

  it('says how every column named like a reference is carried', () => {
    const unclassified: string[] = [];
    for (const [table, policy] of Object.entries(EXPORTED)) {
      const known = new Set([
        'id',
        'organization_id',
        ...Object.keys(policy.refs ?? {}),
        ...Object.keys(policy.remap ?? {}),
        ...Object.keys(policy.reset ?? {}),
        ...(policy.external ?? []),
      ]);
      for (const column of columns.get(table) ?? []) {
        if (REFERENCE_LIKE.test(column.name) && !known.has(column.name)) unclassified.push(`${table}.${column.name}`);
      }
    }
    expect(unclassified).toEqual([]);
  });
});
