import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';

/** Every error the API answers with, in the spec's format: {status, error, error_message}. */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    readonly errorMessage: string | string[],
    readonly extra: Record<string, unknown> = {},
  ) {
    super(Array.isArray(errorMessage) ? errorMessage.join(' ') : errorMessage);
  }

  body(): Record<string, unknown> {
    return { status: this.statusCode, error: this.code, error_message: this.errorMessage, ...this.extra };
  }
}

/** 404 naming the model as the spec does: `No query results for model [TimeOff].` */
export const notFound = (model: string) => new ApiError(404, 'not found', `No query results for model [${model}].`);
export const invalidParams = (messages: string[] | string) =>
  new ApiError(422, 'invalid_params', Array.isArray(messages) ? messages : [messages]);
/** 422 for an instant input (parseInstantInput) that is not one, e.g. `notADateTime('after parameter')`. */
export const notADateTime = (field: string) =>
  invalidParams(`The ${field} must be a date and time such as 2026-03-08 07:00:00 (or with its offset: 2026-03-08T07:00:00-06:00).`);
export const badRequest = (message: string) => new ApiError(400, 'bad_request', message);
export const conflict = (message: string) => new ApiError(409, 'conflict', message);
export const unauthorized = (message = 'The access token is not valid.') =>
  new ApiError(401, 'unauthorized', message);
export const forbidden = (message: string) => new ApiError(403, 'forbidden', message);

const CODE_BY_STATUS: Record<number, string> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not found',
  405: 'method_not_allowed',
  406: 'not_acceptable',
  408: 'request_timeout',
  409: 'conflict',
  413: 'payload_too_large',
  414: 'uri_too_long',
  415: 'unsupported_media_type',
  422: 'invalid_params',
  429: 'too_many_requests',
  431: 'request_header_fields_too_large',
};

export interface ValidationIssue {
  instancePath?: string;
  schemaPath?: string;
  keyword?: string;
  message?: string;
  params?: Record<string, unknown>;
}

/**
 * Ajv reports a value that matches no branch of an anyOf (an id as integer or digit string, a
 * status 0 or 1, a nullable field) as every branch's failure plus the anyOf's own: three or more
 * sentences about one field. Keep one per union: "The selected status is invalid." when every
 * branch is a constant, else the most telling branch failure (not a type mismatch if there is one,
 * then the one nearest the field itself).
 */
function collapseUnions(issues: ValidationIssue[]): ValidationIssue[] {
  const unions = issues.filter((issue) => issue.keyword === 'anyOf' && issue.schemaPath);
  if (unions.length === 0) return issues;
  const within = (issue: ValidationIssue, union: ValidationIssue) =>
    issue !== union && (issue.schemaPath ?? '').startsWith(`${union.schemaPath}/`);
  const depth = (issue: ValidationIssue) => (issue.instancePath ?? '').split('/').length;
  const collapsed: ValidationIssue[] = [];
  for (const issue of issues) {
    if (unions.some((union) => within(issue, union))) continue;
    if (issue.keyword !== 'anyOf') {
      collapsed.push(issue);
      continue;
    }
    const branches = issues.filter((other) => within(other, issue) && other.keyword !== 'anyOf');
    if (branches.length > 0 && branches.every((branch) => branch.keyword === 'const' || branch.keyword === 'enum')) {
      collapsed.push({ ...issue, keyword: 'enum' });
      continue;
    }
    const telling = [...branches].sort(
      (a, b) => Number(a.keyword === 'type') - Number(b.keyword === 'type') || depth(a) - depth(b),
    )[0];
    collapsed.push(telling ?? issue);
  }
  return collapsed;
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
        return `The ${field} must have at least ${String(issue.params?.limit)} item${issue.params?.limit === 1 ? '' : 's'}.`;
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

function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: string }).code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/**
 * Runs rule checks one after another and throws one 422 naming every problem they found (each
 * check's own 422 messages, in order); any other error passes through at once. Resolves to each
 * check's result.
 */
export async function checkAll<T extends readonly unknown[]>(checks: { [K in keyof T]: () => T[K] | Promise<T[K]> }): Promise<T> {
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
     * the request's body too, so that one 422 names every failing field: `sound(field)` tells whether
     * the schema accepted that top-level body field. Throws the 422 of checkAll.
     */
    ruleChecks?: (request: FastifyRequest, sound: (field: string) => boolean) => Promise<unknown>;
  }
}

/** The rule checks' messages for a request the schema refused (none when the route has no checks). */
async function ruleProblems(request: FastifyRequest, issues: ValidationIssue[]): Promise<string[]> {
  const checks = request.routeOptions?.config?.ruleChecks;
  if (!checks) return [];
  const refused = new Set(issues.map(topField));
  try {
    await checks(request, (field) => !refused.has(field));
    return [];
  } catch (error) {
    if (error instanceof ApiError && error.statusCode === 422) return [error.errorMessage].flat();
    request.log.warn({ err: error }, 'rule checks of a refused request failed');
    return [];
  }
}

export function toApiError(error: FastifyError | Error): ApiError | undefined {
  if (error instanceof ApiError) return error;
  const fastifyError = error as FastifyError & { validationContext?: string };
  if (fastifyError.validation) {
    return invalidParams(validationMessages(fastifyError.validation as ValidationIssue[], fastifyError.validationContext));
  }
  if (isUniqueViolation(error)) return conflict('A record with the same unique values already exists.');
  const status = fastifyError.statusCode;
  if (status && status >= 400 && status < 500) {
    const message = fastifyError.code?.startsWith('FST_ERR_CTP_INVALID_JSON') || error instanceof SyntaxError
      ? 'The request body is not valid JSON.'
      : error.message;
    return new ApiError(status, CODE_BY_STATUS[status] ?? 'bad_request', message);
  }
  return undefined;
}

export async function errorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
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
  return reply
    .status(500)
    .type('application/json; charset=utf-8')
    .send({ status: 500, error: 'server_error', error_message: 'An unexpected error occurred.' });
}
