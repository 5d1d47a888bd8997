import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const docsText = () =>
  readdirSync('docs')
    .filter((file) => file.endsWith('.md'))
    .map((file) => readFileSync(join('docs', file), 'utf8'))
    .join('\n');

/** `/v1/users/{user_id}/time_offs` → a pattern that matches it with any parameter names. */
function pathPattern(path: string): RegExp {
  const escaped = path.replace(/^\/v1/, '').replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '\\{[^}]+\\}');
  return new RegExp(`(/v1)?${escaped}(?![a-z_/])`);
}

/** `METHOD /path` of every operation marked x-crewplan-extension. */
async function extensionOperations(): Promise<Array<{ method: string; path: string }>> {
  const { body } = await server.request('GET', '/v1/openapi.json');
  return Object.entries(body.paths as Record<string, Record<string, Record<string, unknown>>>).flatMap(([path, operations]) =>
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
});
