import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/** Every TypeScript file under a folder, tests included unless told. */
function sources(dir: string, { tests = true } = {}): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path, { tests });
    return entry.name.endsWith('.ts') && (tests || !entry.name.endsWith('.test.ts')) ? [path] : [];
  });
}

/** `file:line: text` of every line of the files that matches, except in the files allowed to. */
function linesMatching(files: string[], pattern: RegExp, allowed: string[] = []): string[] {
  return files
    .filter((file) => !allowed.includes(file))
    .flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, index) => (pattern.test(line) ? [`${file}:${index + 1}: ${line.trim()}`] : [])),
    );
}

describe('configuration, start-up and errors each have one place', () => {
  it('only src/config.ts reads the environment', () => {
    expect(linesMatching(sources('src'), /process\.env/, [join('src', 'config.ts')])).toEqual([]);
  });

  it('errors are made only by the constructors of core/errors.ts', () => {
    const errors = join('src', 'core', 'errors.ts');
    expect(linesMatching(sources('src', { tests: false }), /new Api[E]rror\b/, [errors])).toEqual([]);
    // an error body written by hand: `error_message:` with a value that is not a schema
    expect(linesMatching(sources('src', { tests: false }), /error_message: (?!Type\.)/, [errors])).toEqual([]);
  });

  it('success envelopes are made by ok() and created() of core/schemas.ts', () => {
    const handBuilt = /success: true,\s*code:/;
    const offenders = sources('src', { tests: false }).filter(
      (file) => file !== join('src', 'core', 'schemas.ts') && handBuilt.test(readFileSync(file, 'utf8')),
    );
    expect(offenders).toEqual([]);
  });

  it('one period check: no resource words "end after start" itself', () => {
    const periodMessage = /must be (a date )?after|after or equal/;
    expect(linesMatching(sources('src', { tests: false }), periodMessage, [join('src', 'core', 'time.ts')])).toEqual(
      [],
    );
  });

  it('background workers start in src/workers.ts, not in a route plugin', () => {
    expect(linesMatching(sources('src', { tests: false }), /addHook\('onReady'/, [join('src', 'workers.ts')])).toEqual(
      [],
    );
  });

  it('nothing under src/resources, src/core or src/scheduling imports the CLI', () => {
    const importsCli = /^import .* from '(\.\.\/)+cli\//;
    const files = ['src/resources', 'src/core', 'src/scheduling'].flatMap((dir) => sources(dir));
    expect(linesMatching(files, importsCli)).toEqual([]);
  });
});
