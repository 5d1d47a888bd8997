import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';

/**
 * The closed set of error codes the API answers with, and the status of each. The spec's codes
 * first, then the OAuth 2 token endpoint's (RFC 6749 §5.2), then the server's own.
 */
const STATUS_BY_CODE = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  'not found': 404,
  method_not_allowed: 405,
  not_acceptable: 406,
  request_timeout: 408,
  conflict: 409,
  payload_too_large: 413,
  uri_too_long: 414,
  unsupported_media_type: 415,
  invalid_params: 422,
  too_many_requests: 429,
  request_header_fields_too_large: 431,
  server_error: 500,
  unavailable: 503,
} as const;

/** OAuth 2 token errors: their own codes, with `error_description` beside `error_message`. */
const OAUTH_STATUS_BY_CODE = {
  invalid_request: 400,
  unsupported_grant_type: 400,
  invalid_client: 401,
} as const;

export type ErrorCode = keyof typeof STATUS_BY_CODE;
export type OAuthErrorCode = keyof typeof OAUTH_STATUS_BY_CODE;

/**
 * Every error the API answers with, in the spec's format: {status, error, error_message}. Built
 * only through the constructors below, one per code.
 */
export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode | OAuthErrorCode,
    readonly errorMessage: string | string[],
    readonly extra: Record<string, unknown> = {},
    readonly statusCode: number = { ...STATUS_BY_CODE, ...OAUTH_STATUS_BY_CODE }[code],
  ) {
    super(Array.isArray(errorMessage) ? errorMessage.join(' ') : errorMessage);
  }

  body(): Record<string, unknown> {
    return { status: this.statusCode, error: this.code, error_message: this.errorMessage, ...this.extra };
  }
}

/** 400: a request that cannot be read at all (a URL or body that is not valid text). */
export const badRequest = (message: string) => new ApiError('bad_request', message);
export const unauthorized = (message = 'The access token is not valid.') => new ApiError('unauthorized', message);
export const forbidden = (message: string) => new ApiError('forbidden', message);
/**
 * 404 naming the model as the spec does: `No query results for model [TimeOff].`; without a model,
 * the route itself does not exist.
 */
export const notFound = (model?: string) =>
  new ApiError('not found', model ? `No query results for model [${model}].` : 'The requested route does not exist.');
/** The row a lookup found, or the 404 naming its model. */
export async function orNotFound<T>(lookup: Promise<T | undefined>, model: string): Promise<T> {
  const row = await lookup;
  if (!row) throw notFound(model);
  return row;
}
export const methodNotAllowed = (method: string) =>
  new ApiError('method_not_allowed', `The ${method} method is not supported for this route.`);
export const requestTimeout = (message: string) => new ApiError('request_timeout', message);
export const conflict = (message: string) => new ApiError('conflict', message);
export const notAcceptable = (message: string) => new ApiError('not_acceptable', message);
export const unsupportedMediaType = (message: string) => new ApiError('unsupported_media_type', message);
export const invalidParams = (messages: string[] | string, extra: Record<string, unknown> = {}) =>
  new ApiError('invalid_params', Array.isArray(messages) ? messages : [messages], extra);
/** 422 for an instant input (parseInstantInput) that is not one, e.g. `notADateTime('after parameter')`. */
export const notADateTime = (field: string) =>
  invalidParams(
    `The ${field} must be a date and time such as 2026-03-08 07:00:00 (or with its offset: 2026-03-08T07:00:00-06:00).`,
  );
export const headersTooLarge = (message: string) => new ApiError('request_header_fields_too_large', message);
export const tooManyRequests = (message: string) => new ApiError('too_many_requests', message);
export const serverError = () => new ApiError('server_error', 'An unexpected error occurred.');
export const unavailable = (message: string) => new ApiError('unavailable', message);
/** An OAuth 2 token error (RFC 6749 §5.2): the description also as `error_description`. */
export const oauthError = (code: OAuthErrorCode, description: string) =>
  new ApiError(code, description, { error_description: description });

/**
 * The error of a client error status that Fastify or a plugin raised: its code, or bad_request
 * (keeping the status) for a status without one of ours.
 */
function fromStatus(status: number, message: string): ApiError {
  const code = (Object.keys(STATUS_BY_CODE) as ErrorCode[]).find((key) => STATUS_BY_CODE[key] === status);
  return new ApiError(code ?? 'bad_request', message, {}, status);
}

export interface ValidationIssue {
  instancePath?: string;
  schemaPath?: string;
  keyword?: string;
  message?: string;
  params?: Record<string, unknown>;
}

const isConstant = (issue: ValidationIssue) => issue.keyword === 'const' || issue.keyword === 'enum';
const depthOf = (issue: ValidationIssue) => (issue.instancePath ?? '').split('/').length;
const isWithin = (issue: ValidationIssue, union: ValidationIssue) =>
  issue !== union && (issue.schemaPath ?? '').startsWith(`${union.schemaPath}/`);

/**
 * Ajv reports a value that matches no branch of an anyOf (an id as integer or digit string, a
 * status 0 or 1, a nullable field, one trade or a list of them) as every branch's failures plus the
 * anyOf's own. Each union, innermost first, keeps only what tells of the value:
 * - "The selected status is invalid." when every branch is a constant;
 * - the failures of a branch whose type the value has (the text of a nullable field too long, the
 *   fields of the one trade), all of them, the branch with the fewest when several;
 * - "must be text or null" when a nullable input's value has neither type;
 * - else the first constant or type the value missed.
 */
function collapseUnions(issues: ValidationIssue[]): ValidationIssue[] {
  let list = issues;
  for (;;) {
    const unions = list.filter((issue) => issue.keyword === 'anyOf' && issue.schemaPath);
    const union = unions.find((candidate) => !unions.some((other) => isWithin(other, candidate)));
    if (!union) return list;
    const inside = list.filter((issue) => isWithin(issue, union));
    const at = list.findIndex((issue) => issue === union || inside.includes(issue));
    const rest = list.filter((issue) => issue !== union && !inside.includes(issue));
    list = [...rest.slice(0, at), ...collapseUnion(union, inside), ...rest.slice(at)];
  }
}

function collapseUnion(union: ValidationIssue, inside: ValidationIssue[]): ValidationIssue[] {
  if (inside.length === 0) return [union];
  if (inside.every(isConstant)) return [{ ...union, keyword: 'enum' }];
  const own = depthOf(union);
  const missed = (issue: ValidationIssue) => depthOf(issue) === own && (issue.keyword === 'type' || isConstant(issue));
  const branches = new Map<string, ValidationIssue[]>();
  for (const issue of inside) {
    const branch = (issue.schemaPath ?? '').slice(`${union.schemaPath}/`.length).split('/')[0] ?? '';
    branches.set(branch, [...(branches.get(branch) ?? []), issue]);
  }
  const fitting = [...branches.values()].filter((failures) => !failures.some(missed));
  if (fitting.length > 0) return fitting.sort((a, b) => a.length - b.length)[0]!;
  const mismatches = inside.filter((issue) => missed(issue) && issue.keyword === 'type');
  const types = new Set(mismatches.flatMap((issue) => String(issue.params?.type).split(',')));
  // only null missed by type: the other branches are choices the value's type fits ("Fax" for a contact method)
  if (types.size === 1 && types.has('null') && inside.some(isConstant)) return [{ ...union, keyword: 'enum' }];
  if (types.has('null')) {
    const named = [...types].sort((a, b) => Number(a === 'null') - Number(b === 'null'));
    return [{ ...mismatches[0]!, schemaPath: union.schemaPath, params: { type: named.join(',') } }];
  }
  return [inside.find(isConstant) ?? inside[0]!];
}

function fieldName(issue: ValidationIssue, context: string | undefined): string {
  // `/phone_numbers/0` → `phone_numbers (item 1)`; `/assignments/0/start` → `assignments (item 1) start`
  const path = (issue.instancePath ?? '')
    .split('/')
    .filter(Boolean)
    .map((segment, index) => (/^\d+$/.test(segment) && index > 0 ? `(item ${Number(segment) + 1})` : segment))
    .join(' ');
  const missing = issue.params?.missingProperty as string | undefined;
  const name = [path, missing].filter(Boolean).join(' ');
  return (name || context || 'request').replace(/_/g, ' ');
}

/** What each string pattern of the schemas asks for, in words (a regex is never shown). */
const PATTERN_RULES: Record<string, string> = {
  '^[0-9]{1,20}$': 'must contain only digits (up to 20)',
  '^[0-9]+$': 'must contain only digits',
  '^\\d{4}-\\d{2}-\\d{2}$': 'must be a date as YYYY-MM-DD',
  '^#([0-9a-fA-F]{6}|[0-9a-fA-F]{3})$': 'must be a color as #RRGGBB',
  '^([01]\\d|2[0-3]):[0-5]\\d(:[0-5]\\d)?$': 'must be a time of day as hh:mm',
  '^(\\*|[a-z0-9_]+(\\.[a-z0-9_]+)*(\\.\\*)?)$': 'must be an event name (user.created), a group of them (user.*) or *',
};

/** Each string format of the schemas, as a person names it. */
const FORMAT_NAMES: Record<string, string> = {
  date: 'date (YYYY-MM-DD)',
  'local-datetime': 'date and time (YYYY-MM-DD hh:mm:ss)',
  'date-time': 'date and time with its offset (YYYY-MM-DDThh:mm:ss+hh:mm)',
  email: 'e-mail address',
  uri: 'URL',
};

/** JSON types as a person names them. */
const TYPE_NAMES: Record<string, string> = {
  integer: 'a whole number',
  number: 'a number',
  string: 'text',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object',
  null: 'null',
};

/** The field of an issue: its top-level property (a missing one included), for ruleChecks. */
function topField(issue: ValidationIssue): string | undefined {
  const first = (issue.instancePath ?? '').split('/')[1];
  return first || (issue.params?.missingProperty as string | undefined);
}

/** Turns Ajv issues into readable sentences: "The start field is required." */
export function validationMessages(issues: ValidationIssue[], context?: string): string[] {
  const query = context === 'querystring';
  const messages = collapseUnions(issues).map((issue) => {
    // a query string's fields are the URL's parameters: "The after parameter …"
    const name = fieldName(issue, context);
    const field = query ? `${name} parameter` : name;
    const fieldNoun = query ? field : `${name} field`;
    switch (issue.keyword) {
      case 'required':
        return `The ${fieldNoun} is required.`;
      case 'type':
        return `The ${fieldNoun} must be ${String(issue.params?.type ?? '')
          .split(',')
          .map((type) => TYPE_NAMES[type] ?? type)
          .join(' or ')}.`;
      case 'maxLength':
        return `The ${field} may not be greater than ${String(issue.params?.limit)} characters.`;
      case 'minLength':
        return `The ${field} must be at least ${String(issue.params?.limit)} characters.`;
      case 'minItems':
        return (
          `The ${field} must have at least ${String(issue.params?.limit)} ` +
          `item${issue.params?.limit === 1 ? '' : 's'}.`
        );
      case 'maxItems':
        return `The ${field} may not have more than ${String(issue.params?.limit)} items.`;
      case 'minimum':
        return `The ${field} must be at least ${String(issue.params?.limit)}.`;
      case 'maximum':
        return `The ${field} may not be greater than ${String(issue.params?.limit)}.`;
      case 'exclusiveMinimum':
        return `The ${field} must be greater than ${String(issue.params?.limit)}.`;
      case 'exclusiveMaximum':
        return `The ${field} must be less than ${String(issue.params?.limit)}.`;
      case 'format': {
        const format = String(issue.params?.format);
        return `The ${field} is not a valid ${FORMAT_NAMES[format] ?? format.replace(/-/g, ' ')}.`;
      }
      case 'pattern':
        return `The ${field} ${PATTERN_RULES[String(issue.params?.pattern)] ?? 'is not in the expected form'}.`;
      case 'uniqueItems':
        return `The ${field} may not list the same value twice.`;
      case 'enum':
      case 'const':
        return `The selected ${field} is invalid.`;
      case 'additionalProperties':
        return `The ${fieldNoun} ${String(issue.params?.additionalProperty)} is not allowed.`;
      default:
        return `The ${field} is invalid.`;
    }
  });
  return [...new Set(messages)];
}

/** A unique (or primary key) constraint refused the write, on either engine. */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: string }).code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/**
 * Runs rule checks one after another and throws one 422 naming every problem they found (each
 * check's own 422 messages, in order); any other error passes through at once. Resolves to each
 * check's result.
 */
export async function checkAll<T extends readonly unknown[]>(
  checks: { [K in keyof T]: () => T[K] | Promise<T[K]> },
): Promise<T> {
  const results: unknown[] = [];
  const problems: string[] = [];
  for (const check of checks as ReadonlyArray<() => unknown>) {
    try {
      results.push(await check());
    } catch (error) {
      if (!(error instanceof ApiError) || error.statusCode !== 422) throw error;
      problems.push(...[error.errorMessage].flat());
      results.push(undefined);
    }
  }
  if (problems.length > 0) throw invalidParams([...new Set(problems)]);
  return results as unknown as T;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route's rule checks (unknown ids, an end before its start…), run when the schema refused
     * the request's body too, so that one 422 names every failing field. `accepted` holds the body's
     * top-level fields the schema did not refuse (none of those it did): a check skips a field that
     * is absent. Throws the 422 of checkAll.
     */
    ruleChecks?: (request: FastifyRequest, accepted: Record<string, unknown>) => Promise<unknown>;
  }
}

/** The rule checks' messages for a request the schema refused (none when the route has no checks). */
async function ruleProblems(request: FastifyRequest, issues: ValidationIssue[]): Promise<string[]> {
  const checks = request.routeOptions?.config?.ruleChecks;
  const body = request.body;
  if (!checks || typeof body !== 'object' || body === null || Array.isArray(body)) return [];
  const refused = new Set(issues.map(topField));
  const accepted = Object.fromEntries(Object.entries(body).filter(([field]) => !refused.has(field)));
  try {
    await checks(request, accepted);
    return [];
  } catch (error) {
    if (error instanceof ApiError && error.statusCode === 422) return [error.errorMessage].flat();
    request.log.warn({ err: error }, 'rule checks of a refused request failed');
    return [];
  }
}

/**
 * The write waited for the database and could not have it: SQLite's lock held by another process
 * past the busy timeout, or PostgreSQL ending a transaction in a deadlock or a serialization
 * failure. The transaction was rolled back; the request may be sent again.
 */
function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && (code.startsWith('SQLITE_BUSY') || code === '40P01' || code === '40001');
}

export function toApiError(error: FastifyError | Error): ApiError | undefined {
  if (error instanceof ApiError) return error;
  const fastifyError = error as FastifyError & { validationContext?: string };
  if (fastifyError.validation) {
    return invalidParams(
      validationMessages(fastifyError.validation as ValidationIssue[], fastifyError.validationContext),
    );
  }
  if (isUniqueViolation(error)) return conflict('A record with the same unique values already exists.');
  if (isBusy(error))
    return conflict('Another change was being saved at the same time and nothing was saved; try again.');
  const status = fastifyError.statusCode;
  if (status && status >= 400 && status < 500) {
    const message =
      fastifyError.code?.startsWith('FST_ERR_CTP_INVALID_JSON') || error instanceof SyntaxError
        ? 'The request body is not valid JSON.'
        : error.message;
    return fromStatus(status, message);
  }
  return undefined;
}

export async function errorHandler(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  let apiError = toApiError(error);
  // only a refused body: when params or the query failed, the body has not been validated at all
  if (apiError && error.validation && (error as { validationContext?: string }).validationContext === 'body') {
    const more = await ruleProblems(request, error.validation as ValidationIssue[]);
    if (more.length > 0) apiError = invalidParams([...new Set([...[apiError.errorMessage].flat(), ...more])]);
  }
  if (apiError) {
    if (apiError.statusCode === 401 && !reply.hasHeader('WWW-Authenticate') && request.url.startsWith('/v1')) {
      reply.header('WWW-Authenticate', 'Bearer');
    }
    return reply.status(apiError.statusCode).type('application/json; charset=utf-8').send(apiError.body());
  }
  request.log.error({ err: error, reqId: request.id }, 'unhandled error');
  return reply.status(500).type('application/json; charset=utf-8').send(serverError().body());
}
