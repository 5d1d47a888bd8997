import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { DateStr } from './schemas.js';
import { compileCheck } from './validate.js';

describe('compileCheck', () => {
  const check = compileCheck(
    Type.Object(
      { email: Type.String({ format: 'email' }), date_of_hire: Type.Optional(DateStr) },
      { additionalProperties: false },
    ),
  );

  it('accepts a valid value', () => {
    expect(check({ email: 'a@example.com', date_of_hire: '2020-02-29' })).toEqual([]);
  });

  it('names every failing field as request validation does', () => {
    expect(check({ email: 'nope', date_of_hire: '2021-02-30', extra: 1 })).toEqual([
      'The body field extra is not allowed.',
      'The email is not a valid e-mail address.',
      'The date of hire is not a valid date (YYYY-MM-DD).',
    ]);
  });
});
