import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction, RouteOptions } from 'fastify';

/** What a path id may be written as: digits, at most the largest id (a 32-bit integer). */
const ID_TEXT = /^\d{1,10}$/;
const LARGEST_ID = 2_147_483_647;

/** The id no record has: a path id that is not an id (`abc`, `-1`, `1.5`, `99999999999`) is read as it. */
export const NO_RECORD_ID = '0';

const isIdText = (value: unknown): boolean =>
  typeof value === 'string' && ID_TEXT.test(value) && Number(value) <= LARGEST_ID;

/** The path parameters of a route that its schema declares as integer ids. */
function idParameters(route: RouteOptions): string[] {
  const params = route.schema?.params as { properties?: Record<string, { type?: unknown }> } | undefined;
  return Object.entries(params?.properties ?? {})
    .filter(([, schema]) => schema.type === 'integer')
    .map(([name]) => name);
}

/**
 * onRoute hook: on a route with id parameters, an id that names no record in any organization
 * (`/users/abc`, `/users/0`, `/users/99999999999`) is answered as a missing record, 404 with the
 * route's own model name, rather than as invalid input (the spec's 404 is "record absent"). It is
 * read as {@link NO_RECORD_ID} before validation, so the route looks it up and finds nothing; the
 * params schemas take 0 for that (PathId in core/schemas.ts).
 */
export function readMalformedPathIdsAsMissing(route: RouteOptions): void {
  const names = idParameters(route);
  if (names.length === 0) return;
  // a callback hook, not an async one: it runs on hot reads (GET /users/{id}) and needs no promise
  const replaceMalformed = (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) => {
    const params = request.params as Record<string, unknown>;
    for (const name of names) if (!isIdText(params[name])) params[name] = NO_RECORD_ID;
    done();
  };
  const existing = route.preValidation;
  route.preValidation = existing
    ? [replaceMalformed, ...(Array.isArray(existing) ? existing : [existing])]
    : replaceMalformed;
}
