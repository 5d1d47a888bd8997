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
  const path = (issue.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.');
  const missing = issue.params?.missingProperty as string | undefined;
  const name = [path, missing].filter(Boolean).join('.');
  return (name || context || 'request').replace(/_/g, ' ');
}

/** Turns Ajv issues into readable sentences: "The start field is required." */
export function validationMessages(issues: ValidationIssue[], context?: string): string[] {
  const messages = collapseUnions(issues).map((issue) => {
    const field = fieldName(issue, context);
    switch (issue.keyword) {
      case 'required':
        return `The ${field} field is required.`;
      case 'type':
        return `The ${field} field must be ${String(issue.params?.type ?? 'of another type').replace(',', ' or ')}.`;
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
      case 'format':
        return `The ${field} is not a valid ${String(issue.params?.format)}.`;
      case 'enum':
        return `The selected ${field} is invalid.`;
      case 'additionalProperties':
        return `The ${field} field ${String(issue.params?.additionalProperty)} is not allowed.`;
      default:
        return `The ${field} ${issue.message ?? 'is invalid'}.`;
    }
  });
  return [...new Set(messages)];
}

function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: string }).code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
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

export function errorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const apiError = toApiError(error);
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
