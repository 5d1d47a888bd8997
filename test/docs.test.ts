import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const markdownIn = (dir: string) =>
  readdirSync(dir)
    .filter((file) => file.endsWith('.md'))
    .map((file) => readFileSync(join(dir, file), 'utf8'));

const docsText = () => [...markdownIn('docs'), ...markdownIn(join('docs', 'decisions'))].join('\n');

const decisionRecords = () => readdirSync(join('docs', 'decisions')).filter((file) => /^\d{4}-.+\.md$/.test(file));

/** `/v1/users/{user_id}/time_offs` → a pattern that matches it with any parameter names. */
function pathPattern(path: string): RegExp {
  const escaped = path
    .replace(/^\/v1/, '')
    .replace(/[.*+?^$()|[\]\\]/g, '\\$&')
    .replace(/\\?\{[^}]+\\?\}/g, '\\{[^}]+\\}');
  return new RegExp(`(/v1)?${escaped}(?![a-z_/])`);
}

/** `METHOD /path` of every operation marked x-crewplan-extension. */
async function extensionOperations(): Promise<Array<{ method: string; path: string }>> {
  const { body } = await server.request('GET', '/v1/openapi.json');
  return Object.entries(body.paths as Record<string, Record<string, Record<string, unknown>>>).flatMap(
    ([path, operations]) =>
      Object.entries(operations)
        .filter(([, operation]) => operation['x-crewplan-extension'])
        .map(([method]) => ({ method: method.toUpperCase(), path })),
  );
}

/** The operations no line of `text` names (method and path on one line). */
function missingFrom(text: string, operations: Array<{ method: string; path: string }>): string[] {
  const lines = text.split('\n');
  return operations
    .filter(({ method, path }) => !lines.some((l) => l.toUpperCase().includes(method) && pathPattern(path).test(l)))
    .map(({ method, path }) => `${method} ${path}`);
}

describe('documentation', () => {
  it('documents every extension route of the OpenAPI document under docs/', async () => {
    const operations = await extensionOperations();
    expect(operations.length).toBeGreaterThan(0);
    expect(missingFrom(docsText(), operations)).toEqual([]);
  });

  it('indexes every extension route in docs/extensions.md', async () => {
    expect(missingFrom(readFileSync(join('docs', 'extensions.md'), 'utf8'), await extensionOperations())).toEqual([]);
  });

  it('documents the routes outside the OpenAPI document: calendar feeds and metrics', () => {
    const index = readFileSync(join('docs', 'extensions.md'), 'utf8');
    expect(index).toMatch(/GET \| \/feeds\/\{token\}\.ics/);
    expect(index).toContain('GET /metrics');
  });

  it('lists every decision record in the index, each with its context, decision and consequences', () => {
    const records = decisionRecords();
    expect(records.length).toBeGreaterThan(0);
    const index = readFileSync(join('docs', 'decisions', 'README.md'), 'utf8');
    expect(records.filter((file) => !index.includes(`](${file})`))).toEqual([]);
    const numbers = records.map((file) => file.slice(0, 4));
    expect(new Set(numbers).size).toBe(numbers.length);
    for (const file of records) {
      const text = readFileSync(join('docs', 'decisions', file), 'utf8');
      expect(text.startsWith(`# ${file.slice(0, 4)}. `), file).toBe(true);
      for (const section of ['## Context', '## Decision', '## Consequences']) {
        expect(text.includes(`\n${section}\n`), `${file}: ${section}`).toBe(true);
      }
    }
  });

  it('lists every migration in docs/architecture.md, in order, and no other', () => {
    const files = readdirSync(join('src', 'core', 'db', 'migrations'))
      .filter((file) => /^\d{4}-[a-z0-9-]+\.ts$/.test(file))
      .map((file) => file.replace(/\.ts$/, ''))
      .sort();
    const listed = [
      ...readFileSync(join('docs', 'architecture.md'), 'utf8').matchAll(/^- `(\d{4}-[a-z0-9-]+)`$/gm),
    ].map((match) => match[1]);
    expect(listed).toEqual(files);
  });

  it('links only to files that exist', () => {
    const files = [
      ...readdirSync('docs')
        .filter((file) => file.endsWith('.md'))
        .map((file) => join('docs', file)),
      ...readdirSync(join('docs', 'decisions')).map((file) => join('docs', 'decisions', file)),
      'README.md',
    ];
    const broken = files.flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/\]\(([^)#\s]+\.md)(#[^)]*)?\)/g)]
        .map((match) => match[1])
        .filter((target) => !/^[a-z]+:/.test(target) && !existsSync(join(dirname(file), target)))
        .map((target) => `${file} → ${target}`),
    );
    expect(broken).toEqual([]);
  });
});
