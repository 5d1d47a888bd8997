import type { FastifyRequest } from 'fastify';
import { invalidParams } from './errors.js';

const NUL = '\u0000';

/** Parsed JSON or form data (query objects have their own prototype); not a Buffer of uploaded bytes. */
const isParsedObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !ArrayBuffer.isView(value);

/**
 * True when a string, or any key or string inside parsed JSON or form data, holds U+0000 (binary bodies are not looked
 * into).
 */
export function containsNul(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const current = pending.pop();
    if (typeof current === 'string') {
      if (current.includes(NUL)) return true;
    } else if (Array.isArray(current)) {
      for (const item of current) pending.push(item);
    } else if (isParsedObject(current)) {
      for (const [key, item] of Object.entries(current)) {
        if (key.includes(NUL)) return true;
        pending.push(item);
      }
    }
  }
  return false;
}

/**
 * preValidation hook: U+0000 in the body, query or path is refused with 422 on both engines.
 * PostgreSQL cannot store it in text (it would fail the query with a 5xx); SQLite would keep it.
 */
export async function rejectNulCharacters(request: FastifyRequest): Promise<void> {
  if (containsNul(request.params) || containsNul(request.query) || containsNul(request.body)) {
    throw invalidParams('The request may not contain the NUL character (U+0000).');
  }
}
