import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sha256 } from './records.js';

/** Decision records are append-only (docs/workflows.md, "Decision records"); the behaviour is in callback-decisions. */
const TABLES =
  /(?:updateTable|deleteFrom)\('(callback_decision|callback_decision_line|callback_contact|forced_hire_contact)\b/;

function sources(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('decision records', () => {
  it('no module of the server updates or deletes them', () => {
    const writers = sources('src')
      .filter((file) => TABLES.test(readFileSync(file, 'utf8')))
      .map((file) => relative('.', file));
    expect(writers).toEqual([]);
  });

  it('the rules hash is the SHA-256 of the snapshot text', () => {
    expect(sha256('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256('{"list":{"id":1}}')).toHaveLength(64);
  });
});
