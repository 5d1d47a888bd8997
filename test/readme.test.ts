import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/** Every file under `dir` (recursively) whose name ends with one of `extensions`. */
function filesUnder(dir: string, extensions: string[]): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory())
      return name === 'node_modules' || name === 'dist' ? [] : filesUnder(path, extensions);
    return extensions.some((extension) => name.endsWith(extension)) ? [path] : [];
  });
}

const readme = readFileSync('README.md', 'utf8');

/** The environment variables the server and the CLI read: src/ (tests aside) and package.json's scripts. */
function variablesRead(): Set<string> {
  const names = new Set<string>();
  const patterns = [
    /\benv\.([A-Z][A-Z0-9_]+)/g,
    /\benv\[['"]([A-Z][A-Z0-9_]+)['"]\]/g,
    /\b[a-z]+From\(env, '([A-Z][A-Z0-9_]+)'/g,
  ];
  for (const file of filesUnder('src', ['.ts']).filter(
    (f) => !f.endsWith('.test.ts') && !f.endsWith('test-fixtures.ts'),
  )) {
    const text = readFileSync(file, 'utf8');
    for (const pattern of patterns) for (const match of text.matchAll(pattern)) names.add(match[1]);
  }
  const scripts = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts;
  for (const name of ['start', 'cli'])
    for (const match of scripts[name].matchAll(/\$\{([A-Z][A-Z0-9_]+)/g)) names.add(match[1]);
  return names;
}

/** The variables named in the first column of the README's Configuration table. */
function variablesDocumented(): Set<string> {
  const section = readme.split(/^## /m).find((part) => part.startsWith('Configuration'))!;
  const rows = section.split('\n').filter((line) => line.startsWith('| `'));
  return new Set(rows.flatMap((row) => [...row.split('|')[1].matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1])));
}

describe('README', () => {
  it('fits on a page or two: 150 lines at most', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(150);
  });

  it('lists every environment variable the code reads, and no other', () => {
    const read = variablesRead();
    expect(read.size).toBeGreaterThan(20);
    expect([...variablesDocumented()].sort()).toEqual([...read].sort());
  });

  it('names in its quick start the commands the CLI has', () => {
    for (const command of ['org create', '--admin-username', 'user create', 'seed demo', 'credentials revoke'])
      expect(readme).toContain(command);
  });
});

describe('documentation', () => {
  it('names no path outside the repository', () => {
    const outside = ['..', 'shared'].join('/');
    const files = [
      'README.md',
      ...filesUnder('docs', ['.md']),
      ...filesUnder('src', ['.ts']),
      ...filesUnder('client', ['.ts', '.md']),
      ...filesUnder('web/src', ['.ts', '.tsx']),
    ];
    expect(files.filter((file) => readFileSync(file, 'utf8').includes(outside))).toEqual([]);
  });

  it('starts every docs/*.md with its title and a short summary in prose', () => {
    for (const file of filesUnder('docs', ['.md'])) {
      const [title, blank, summary] = readFileSync(file, 'utf8').split('\n');
      expect([file, title.startsWith('# '), blank, /^[A-Za-z`(]/.test(summary ?? '')]).toEqual([file, true, '', true]);
    }
  });
});
