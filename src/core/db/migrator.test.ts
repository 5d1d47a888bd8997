import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import pg from 'pg';
import { testDatabaseUrl } from '../../../test/helpers/server.js';
import { createDatabase } from './index.js';
import { migrateToLatest } from './migrator.js';

const pgUrl = testDatabaseUrl;

/** Another tenant of the database (a parallel test run) creating and dropping a schema of its own, over and over. */
async function churnSchemas(name: string, until: () => boolean): Promise<number> {
  const client = new pg.Client({ connectionString: pgUrl });
  await client.connect();
  let rounds = 0;
  try {
    while (!until()) {
      const tables = Array.from(
        { length: 40 },
        (_, i) => `create table ${name}.t${i} (id serial primary key, a int, b text);`,
      ).join('');
      await client.query(`create schema ${name}; ${tables}`);
      await client.query(`drop schema ${name} cascade`);
      rounds += 1;
    }
  } finally {
    await client.end();
  }
  return rounds;
}

describe('migrateToLatest on PostgreSQL', () => {
  it.runIf(pgUrl)('looks at its own schema only: other schemas dropped meanwhile do not make it fail', async () => {
    const suffix = `${process.pid}_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    let done = false;
    const churn = churnSchemas(`m_churn_${suffix}`, () => done);
    const schemas: string[] = [];
    try {
      for (let run = 0; run < 4; run += 1) {
        const schema = `m_ours_${suffix}_${run}`;
        schemas.push(schema);
        await admin.query(`create schema ${schema}`);
        const handle = createDatabase({
          databaseUrl: pgUrl!,
          pgSchema: schema,
          pgPoolSize: 2,
          sqlitePath: '',
          sqliteSynchronous: 'FULL',
        });
        try {
          expect(await migrateToLatest(handle.db)).toContain('0800-change-notifications');
          expect(await migrateToLatest(handle.db)).toEqual([]);
        } finally {
          await handle.close();
        }
      }
    } finally {
      done = true;
      expect(await churn).toBeGreaterThan(0);
      for (const schema of schemas) await admin.query(`drop schema if exists ${schema} cascade`);
      await admin.end();
    }
  });
});
