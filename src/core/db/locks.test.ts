import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Tables whose status (and soft delete) change only through transition() in locks.ts. */
const TRANSITION_TABLES = ['time_off', 'trade', 'callback'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'migrations' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('status transitions', () => {
  it('are written by transition() alone: no other code updates a table that has one', () => {
    const pattern = new RegExp(`updateTable\\(\\s*['"\`](${TRANSITION_TABLES.join('|')})['"\`]`);
    const offenders = sourceFiles(SRC)
      .filter((file) => !file.endsWith(join('core', 'db', 'locks.ts')))
      .filter((file) => pattern.test(readFileSync(file, 'utf8')))
      .map((file) => relative(SRC, file));
    expect(offenders).toEqual([]);
  });
});
