import { expect, type MatcherState } from 'vitest';
import type { ApiResponse } from './server.js';

/**
 * Matchers on an API response, registered for every test file (vitest.config.ts). Each checks the
 * HTTP status and that the body is exactly the one given (expect.any and the like allowed in it).
 */
interface ResponseMatchers<R = unknown> {
  /** HTTP `status` with exactly `body`. */
  toAnswer(status: number, body: unknown): R;
  /** A write's success envelope: HTTP `code`, body `{ success: true, code, status, message, ...fields }`. */
  toSucceed(code: 200 | 201, message: unknown, fields?: object): R;
  /** The 404 of a missing record of `model` (or of another organization's). */
  toBeNotFound(model: string): R;
  /** A 422 in the spec's format (`invalid_params`) whose error_message is exactly `message`. */
  toBeInvalid(message: unknown): R;
}

declare module 'vitest' {
  // biome-ignore lint/suspicious/noExplicitAny: as vitest declares it
  interface Matchers<T = any> extends ResponseMatchers<T> {}
}

function answer(state: MatcherState, response: ApiResponse, status: number, body: unknown) {
  return {
    pass: response.status === status && state.equals(response.body, body),
    message: () => `expected ${state.isNot ? 'anything but ' : ''}HTTP ${status} with the body given`,
    actual: { status: response.status, body: response.body },
    expected: { status, body },
  };
}

expect.extend({
  toAnswer(response: ApiResponse, status: number, body: unknown) {
    return answer(this, response, status, body);
  },
  toSucceed(response: ApiResponse, code: 200 | 201, message: unknown, fields: object = {}) {
    const status = code === 201 ? 'created' : 'ok';
    return answer(this, response, code, { success: true, code, status, message, ...fields });
  },
  toBeNotFound(response: ApiResponse, model: string) {
    const error_message = `No query results for model [${model}].`;
    return answer(this, response, 404, { status: 404, error: 'not found', error_message });
  },
  toBeInvalid(response: ApiResponse, message: unknown) {
    return answer(this, response, 422, { status: 422, error: 'invalid_params', error_message: message });
  },
});
