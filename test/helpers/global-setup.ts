import { execFileSync } from 'node:child_process';
import { readdirSync, statSync, utimesSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The newest modification time of the compiled sources (src/, tests aside), in milliseconds. */
function newestSource(): number {
  let newest = 0;
  for (const entry of readdirSync(join(ROOT, 'src'), { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts') || entry.name.endsWith('.test.ts')) continue;
    newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

/** When the compiled build was last made (0 for never). */
function builtAt(): number {
  try {
    return statSync(join(ROOT, 'dist', '.tsbuildinfo')).mtimeMs;
  } catch {
    return 0;
  }
}

/**
 * Before any suite starts: brings the compiled build (dist/) up to date with src/ when a source is newer,
 * since tests run the server and the CLI as processes from it (test/helpers/entries.ts). The build does
 * not type-check (tsconfig.build.json). With TEST_DATABASE_URL set, checks once that PostgreSQL answers.
 */
export default async function setup(): Promise<void> {
  if (newestSource() > builtAt()) {
    execFileSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], {
      cwd: ROOT,
      stdio: 'inherit',
      timeout: 300_000,
    });
    // tsc leaves its build info as it was when no output changed (a source touched, not edited)
    const now = new Date();
    utimesSync(join(ROOT, 'dist', '.tsbuildinfo'), now, now);
  }
  const url = process.env.TEST_DATABASE_URL;
  if (!url) return;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query('select 1');
  await client.end();
}
