import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generateSchemaText, SCHEMA_FILE } from './scripts/schema.js';

/**
 * The committed client/src/schema.d.ts is exactly what `npm run client:generate` makes from the
 * current route table: a route, field or response shape changed without regenerating the client
 * (and its consumers, the web app included) fails here rather than going stale silently.
 */
/** `line N: <generated line>` at the first line where the committed file differs. */
function firstDifference(committed: string, generated: string): string {
  const [old, fresh] = [committed.split('\n'), generated.split('\n')];
  const index = fresh.findIndex((line, i) => old[i] !== line);
  const at = index === -1 ? fresh.length : index;
  return `line ${at + 1}: ${fresh[at] ?? '(end of file)'}`;
}

describe('client/src/schema.d.ts', () => {
  it('is what `npm run client:generate` makes from GET /v1/openapi.json (run it and commit the result)', async () => {
    const generated = await generateSchemaText();
    const committed = readFileSync(SCHEMA_FILE, 'utf8');
    expect(
      committed === generated ? null : firstDifference(committed, generated),
      'client/src/schema.d.ts is stale: run `npm run client:generate` and commit it',
    ).toBeNull();
  }, 60_000);
});
