import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const LIMIT = 120;

/** `file:line (length)` of every line of `src/**\/*.ts` longer than the limit. */
function longLines(root: string): string[] {
  return readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .flatMap((file) =>
      readFileSync(join(root, file), 'utf8')
        .split('\n')
        .flatMap((line, index) => (line.length > LIMIT ? [`${join(root, file)}:${index + 1} (${line.length})`] : [])),
    );
}

describe('source layout', () => {
  it(`has no line over ${LIMIT} characters in src/ (comments and strings included)`, () => {
    expect(longLines('src')).toEqual([]);
  });
});
