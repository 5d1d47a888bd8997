import pg from 'pg';

/** With TEST_DATABASE_URL set, checks once that PostgreSQL answers before any suite starts. */
export default async function setup(): Promise<void> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) return;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query('select 1');
  await client.end();
}
