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

describe('documentation', () => {
  it('documents every extension route of the OpenAPI document under docs/', async () => {
    const { body } = await server.request('GET', '/v1/openapi.json');
    const text = docsText();
    const undocumented: string[] = [];
    for (const [path, operations] of Object.entries(body.paths as Record<string, Record<string, Record<string, unknown>>>)) {
      for (const [method, operation] of Object.entries(operations)) {
        if (!operation['x-crewplan-extension']) continue;
        const line = text.split('\n').find((l) => l.toUpperCase().includes(method.toUpperCase()) && pathPattern(path).test(l));
        if (!line) undocumented.push(`${method.toUpperCase()} ${path}`);
      }
    }
    expect(undocumented).toEqual([]);
  });
});
