import { expect } from 'vitest';
import type { TestOrg, TestServer } from './server.js';

/**
 * The checks every endpoint shares: no token → 401, a bad token → 401, both in the spec's error
 * format with a WWW-Authenticate header.
 */
export async function expectAuthRequired(server: TestServer, method: string, path: string, body?: unknown) {
  for (const token of [null, 'not-a-real-token']) {
    const response = await server.request(method, path, { token, body });
    expect(response.status, `${method} ${path} with token ${token}`).toBe(401);
    expect(response.body).toMatchObject({ status: 401, error: 'unauthorized' });
    expect(typeof response.body.error_message).toBe('string');
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
  }
}

/** Organization B asking for organization A's record gets the same 404 as for a missing one. */
export async function expectNotFoundForOtherOrg(other: TestOrg, method: string, path: string, body?: unknown) {
  const response = await other.request(method, path, body);
  expect(response.status, `${method} ${path} from another organization`).toBe(404);
  expect(response.body).toMatchObject({ status: 404, error: 'not found' });
}
