import { Type, type TSchema } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import {
  DateStr,
  Flag,
  Id,
  IdParams,
  LocalDateTime,
  Nullable,
  NullableInput,
  PageLimit,
  ShortText,
} from './schemas.js';
import { strictValidatorCompilers, strictValidatorFactory } from './strict-input.js';
import { isLocalDateTime } from './time.js';

/**
 * The validators compiled on a route's first request (docs/decisions/0031) stand for Ajv's validate
 * function: on every input they must answer what the validator Ajv compiles answers, report the same
 * errors, leave the input as it does (coercion, defaults) and replace a whole body where it would.
 */
const options = {
  customOptions: {
    allErrors: true,
    allowUnionTypes: true,
    formats: { 'local-datetime': { type: 'string', validate: isLocalDateTime } },
  },
};

type Validate = ((data: unknown, context?: unknown) => boolean) & { errors?: unknown; schemaEnv?: unknown };

const body = Type.Object(
  {
    user_id: Id,
    date: DateStr,
    start: LocalDateTime,
    name: ShortText({ maxLength: 20 }),
    notes: Type.Optional(Nullable(Type.String())),
    paid: Type.Optional(Flag()),
    hours: Type.Optional(Type.Number({ minimum: 0 })),
  },
  { additionalProperties: false },
);
const query = Type.Object({
  user_id: Type.Optional(Id),
  limit: Type.Optional(PageLimit(50, 100)),
  all: Type.Optional(Type.Boolean()),
});

const corpus: Array<{ httpPart: string; schema: TSchema; inputs: unknown[] }> = [
  {
    httpPart: 'body',
    schema: body,
    inputs: [
      { user_id: 1, date: '2026-02-28', start: '2026-02-28 07:00:00', name: 'Anna' },
      { user_id: '12', date: '2026-02-28', start: '2026-02-28 07:00:00', name: 'Anna', notes: null, paid: 1 },
      { user_id: true, date: '2026-02-30', start: '2026-02-28T07:00', name: 'x'.repeat(21), extra: 1 },
      { user_id: 1, date: '2026-02-28', start: '2026-02-28 07:00:00', name: 'A', hours: -1, paid: 'yes' },
      { user_id: ['1'], date: 20260228, name: 5 },
      {},
      null,
      [],
      'text',
    ],
  },
  {
    httpPart: 'body',
    schema: NullableInput(Type.Object({ admin_id: Type.Optional(Id) })),
    inputs: [null, {}, { admin_id: 'x' }],
  },
  {
    httpPart: 'querystring',
    schema: query,
    inputs: [
      {},
      { user_id: '7', limit: '20', all: 'true' },
      { user_id: '0x10' },
      { limit: '1e2' },
      { limit: '500' },
      { all: 'maybe' },
    ],
  },
  { httpPart: 'params', schema: IdParams, inputs: [{ id: '5' }, { id: 'abc' }, { id: '-1' }, {}] },
];

describe('validators compiled on first use', () => {
  for (const { httpPart, schema, inputs } of corpus)
    it(`answer as Ajv's own on ${httpPart} ${JSON.stringify(schema).slice(0, 40)}…`, () => {
      const route = { schema, method: 'POST', url: '/x', httpPart };
      const lazy = strictValidatorFactory()({}, options)(route) as Validate;
      const eager = strictValidatorCompilers()({}, options)(route) as Validate;
      expect(Boolean(lazy.schemaEnv)).toBe(Boolean(eager.schemaEnv));
      for (const input of inputs) {
        // as Fastify calls them: with the request as parent where the validator has a schemaEnv
        const run = (validate: Validate) => {
          const request = { [httpPart]: structuredClone(input) };
          const valid = validate.schemaEnv
            ? validate(request[httpPart], { parentData: request, parentDataProperty: httpPart })
            : validate(request[httpPart]);
          return { valid, errors: valid ? null : validate.errors, after: request[httpPart] };
        };
        expect(run(lazy), JSON.stringify(input)).toEqual(run(eager));
      }
    });

  it('compiles nothing until the first request: a schema Ajv refuses throws there', () => {
    const refused = { type: 'object', properties: { a: { $ref: 'nowhere#' } } };
    const validate = strictValidatorFactory()({}, options)({ schema: refused, httpPart: 'body' }) as Validate;
    expect(() => validate({ a: 1 })).toThrow(/nowhere/);
    expect(() => strictValidatorCompilers()({}, options)({ schema: refused, httpPart: 'body' })).toThrow(/nowhere/);
  });
});
