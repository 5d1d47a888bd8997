import { expect } from 'vitest';
import type { ApiResponse, TestOrg, TestServer } from './server.js';

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

/** A 422 in the spec's format (`invalid_params`) whose error_message is exactly `message`. */
export function expectInvalid(response: ApiResponse, message: unknown) {
  expect(response.status, response.text).toBe(422);
  expect(response.body).toEqual({ status: 422, error: 'invalid_params', error_message: message });
}

/**
 * A write's success envelope: the HTTP status is `code`, and the body is exactly
 * `{ success: true, code, status, message, ...fields }` (status `created` for 201, `ok` for 200).
 */
export function expectSuccess(response: ApiResponse, code: 200 | 201, message: unknown, fields: object = {}) {
  expect(response.status, response.text).toBe(code);
  expect(response.body).toEqual({ success: true, code, status: code === 201 ? 'created' : 'ok', message, ...fields });
}

/** A 404 in the spec's format for a record of `model` that is missing (or another organization's). */
export function expectNotFound(response: ApiResponse, model: string) {
  expect(response.status, response.text).toBe(404);
  expect(response.body).toEqual({
    status: 404,
    error: 'not found',
    error_message: `No query results for model [${model}].`,
  });
}

/** A response with the HTTP status `status` whose body is exactly `body`. */
export function expectBody(response: ApiResponse, status: number, body: unknown) {
  expect(response.status, response.text).toBe(status);
  expect(response.body).toEqual(body);
}
