import {
  Type,
  type Static,
  type TInteger,
  type TNull,
  type TNumber,
  type TProperties,
  type TSchema,
  type TUnion,
} from '@sinclair/typebox';

/**
 * Shared TypeBox pieces. Bodies are validated without type coercion (core/strict-input.ts): what
 * may come in another form is declared here.
 */

/** An input id: an integer, or its digits as a string (the spec's clients send both), read as the integer. */
export const Id = Type.Unsafe<number>({
  type: ['integer', 'string'],
  numericText: 'integer',
  minimum: 1,
  maximum: 2_147_483_647,
  description: 'integer id (a digit string is accepted)',
});
/**
 * A number that a response writes as a string (time off type `required_buffer` "12.50"): its
 * decimal text is accepted too, so a client can send back what it read.
 */
export const NumberOrText = (schema: TNumber | TInteger) =>
  Type.Unsafe<number>({ ...schema, type: [schema.type, 'string'], numericText: schema.type });
/** A boolean; 0 and 1 (also as "0"/"1", "true"/"false") are read as false and true, as the spec's samples send them. */
export const Flag = (options: { description?: string } = {}) =>
  Type.Unsafe<boolean>({
    type: ['boolean', 'integer', 'string'],
    enum: [true, false, 1, 0, 'true', 'false', '1', '0'],
    flag: true,
    ...options,
  });
/**
 * An id in a path. One that names no record (`abc`, `-1`, too large) is read as 0, which no record
 * has, so the route answers 404 as for any missing record (src/core/path-ids.ts).
 */
export const PathId = Type.Integer({
  minimum: 0,
  maximum: 2_147_483_647,
  description: 'record id (integer); an id that names no record answers 404',
});
export const IdParams = Type.Object({ id: PathId });
export type IdParams = Static<typeof IdParams>;
export const UserIdParams = Type.Object({ user_id: PathId });
export type UserIdParams = Static<typeof UserIdParams>;

/** `YYYY-MM-DD` */
export const DateStr = Type.String({ format: 'date', description: 'YYYY-MM-DD', maxLength: 10 });
/** `YYYY-MM-DD hh:mm:ss` in the organization's zone (input also accepts `T`, no seconds, or a bare date). */
export const LocalDateTime = Type.String({
  format: 'local-datetime',
  description: 'YYYY-MM-DD hh:mm:ss (organization time zone)',
  maxLength: 19,
});
/** Instant with offset, e.g. `2026-03-08T07:00:00-05:00`. */
export const IsoDateTime = Type.String({ description: 'YYYY-MM-DDThh:mm:ss+hh:mm' });
export const Color = Type.String({ pattern: '^#([0-9a-fA-F]{6}|[0-9a-fA-F]{3})$', description: '#RRGGBB' });
export const Hours = Type.Number({ description: 'hours, may be fractional' });

export const ShortText = (options: { maxLength?: number; minLength?: number; description?: string } = {}) =>
  Type.String({ maxLength: 255, ...options });
export const LongText = (options: { maxLength?: number; description?: string } = {}) =>
  Type.String({ maxLength: 65_535, ...options });

/** A response field that may be null (fast-json-stringify would write null as 0 or ""). */
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
/** A string or null, the most common response field. */
export const NullableString = () => Nullable(Type.String());

/** A string or null in one JSON-schema type, so a too-long value gets one readable message. */
export const nullableText = (maxLength: number, description: string) =>
  Type.Unsafe<string | null>({ type: ['string', 'null'], maxLength, description });
/**
 * A request field where null is allowed (and clears the value). An empty string sent for it is
 * read as null too.
 */
export const NullableInput = <T extends TSchema>(schema: T) =>
  Type.Union([Type.Null(), Type.Literal(''), schema], { emptyAsNull: true }) as unknown as TUnion<[TNull, T]>;

/** The `limit` query of a paged listing: items per page, `fallback` when not sent. */
export const PageLimit = (fallback: number, maximum = 200) =>
  Type.Integer({ minimum: 1, maximum, description: `page size, default ${fallback}` });

/** {id, name, href}: a reference to a user. */
export const UserRef = Type.Object({ id: Type.Integer(), name: Type.String(), href: Type.String() });
export type UserRef = Static<typeof UserRef>;
/** The same with the id as a string, as several responses write it. */
export const UserRefStrId = Type.Object({ id: Type.String(), name: Type.String(), href: Type.String() });
export type UserRefStrId = Static<typeof UserRefStrId>;
/** {id, href, name}: a reference in the order the schedule, trade and vacancy responses write it. */
export const LinkRef = Type.Object({ id: Type.Integer(), href: Type.String(), name: Type.String() });
export const IdName = Type.Object({ id: Type.Integer(), name: Type.String() });

export const ErrorBody = Type.Object(
  {
    status: Type.Integer(),
    error: Type.String(),
    error_message: Type.Union([Type.String(), Type.Array(Type.String())]),
  },
  { additionalProperties: true },
);

/** Every route's responses include these (routeOptions adds them), so the errors are documented too. */
export const errorResponses = {
  400: ErrorBody,
  401: ErrorBody,
  404: ErrorBody,
  409: ErrorBody,
  422: ErrorBody,
  429: ErrorBody,
} as const;

/**
 * The routes of one file under its OpenAPI tags: `route(operationId, summary, schema)` is a route's options,
 * its schema as Fastify takes it (params, body, response, …) with errorResponses added to the response.
 */
export const routeOptions =
  (tags: string[]) =>
  <S extends { response: Record<number, TSchema> }>(operationId: string, summary: string, schema: S) => ({
    schema: { operationId, summary, tags, ...schema, response: { ...schema.response, ...errorResponses } },
  });

/** The success envelope every write answers with: `{success, code, status, message}` (ok(), created()). */
const envelope = {
  success: Type.Boolean(),
  code: Type.Integer(),
  status: Type.String(),
  message: Type.String(),
};
export const SuccessBody = Type.Object(envelope);
/** The success envelope with the route's own fields after its four. */
export const SuccessWith = <T extends TProperties>(properties: T) => Type.Object({ ...envelope, ...properties });
export const SuccessWithId = SuccessWith({ id: Type.Integer() });
export const SuccessOnly = Type.Object({ success: Type.Boolean() });

/** `{ success: true }` (SuccessOnly), with the extra fields given. */
export function succeeded<T extends object = object>(extra?: T) {
  return { success: true, ...(extra ?? ({} as T)) };
}
export function ok<T extends object = object>(message: string, extra?: T) {
  return { success: true, code: 200, status: 'ok', message, ...(extra ?? ({} as T)) };
}
export function created<T extends object = object>(message: string, extra?: T) {
  return { success: true, code: 201, status: 'created', message, ...(extra ?? ({} as T)) };
}

/** Marks a route as a crewplan extension (not in the spec) in the OpenAPI document. */
export const EXTENSION = { 'x-crewplan-extension': true } as const;

/** Extension: the occurrence's staffing as the engine judges it (docs/schedule.md, "Staffing and vacancies"). */
export const Staffing = Type.Object(
  {
    scheduled: Type.Integer({
      description: 'People on the occurrence for all of it (the fewest on duty at any moment).',
    }),
    needed: Type.Integer({
      description: "The assignment's positions to fill; 0 when it is not a work shift or does not occur that day.",
    }),
    open: Type.Integer({ description: 'Seats open: needed − scheduled, at least 0.' }),
    qualifier_shortfalls: Type.Array(
      Type.Object({
        id: Type.Integer(),
        shortcode: Nullable(Type.String()),
        needed: Type.Integer(),
        have: Type.Integer(),
      }),
      { description: 'Qualifiers held by fewer people on duty than the assignment needs.' },
    ),
    short_from: Nullable(Type.String({ description: 'First moment the occurrence is short (null when it is not).' })),
    short_until: Nullable(Type.String({ description: 'End of the last moment it is short.' })),
  },
  { 'x-crewplan-extension': true },
);
export type Staffing = Static<typeof Staffing>;
