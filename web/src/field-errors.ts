import { ApiError } from './api';

/** Each field's messages, and those that name no field of the form. */
export interface FieldErrors<F extends string> {
  fields: Partial<Record<F, string>>;
  rest: string[];
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Shares a refused request's messages out to the form's fields. The API names the field at the start
 * of each sentence of a 4xx, with spaces for underscores ("The turn minutes field must be at least
 * 1.", "The selected time off type id is invalid.", "The group id names a group without members.",
 * src/core/errors.ts): a sentence goes to the field it begins with (an array's singular too), else
 * to the first field it names ("Give either a group id or user ids …"); the longest name wins, so
 * "group id" is never taken for "group". Any other failure stays in `rest`.
 */
export function fieldErrors<F extends string>(failure: unknown, names: readonly F[]): FieldErrors<F> {
  const messages = failure instanceof ApiError ? failure.messages : [(failure as Error).message];
  const byLength = [...names].sort((a, b) => b.length - a.length);
  const wordsOf = (name: F) => `${escapeRegExp(name.replace(/_/g, ' ').replace(/s$/, ''))}s?\\b`;
  const leading = byLength.map((name) => [name, new RegExp(`^The (selected )?${wordsOf(name)}`, 'i')] as const);
  const anywhere = byLength.map((name) => [name, new RegExp(`\\b${wordsOf(name)}`, 'i')] as const);
  const result: FieldErrors<F> = { fields: {}, rest: [] };
  if (!(failure instanceof ApiError) || failure.status < 400 || failure.status >= 500) {
    result.rest = messages;
    return result;
  }
  for (const message of messages) {
    const named = (patterns: typeof leading) => patterns.find(([, pattern]) => pattern.test(message))?.[0];
    const field = named(leading) ?? named(anywhere);
    if (field) result.fields[field] = result.fields[field] ? `${result.fields[field]} ${message}` : message;
    else result.rest.push(message);
  }
  return result;
}

/** The attributes of a field with an error: marked invalid, described by its message. */
export function invalidAttrs(error: string | undefined, id: string) {
  return error ? { 'aria-invalid': true as const, 'aria-describedby': id } : {};
}
