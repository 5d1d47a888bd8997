import type { FastifyRequest } from 'fastify';

type QueryValue = string | number | boolean | null | undefined;

/** Absolute URL of an API path: `href(request, '/users/5')` → `https://host/v1/users/5`. */
export function href(request: Pick<FastifyRequest, 'baseUrl'>, path: string): string {
  return `${request.baseUrl}/v1${path}`;
}

/** Absolute URL with a query string; null and undefined parameters are left out. */
export function linkTo(
  request: Pick<FastifyRequest, 'baseUrl'>,
  path: string,
  query: Record<string, QueryValue>,
): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) params.set(key, String(value));
  }
  const search = params.toString();
  return href(request, path) + (search ? `?${search}` : '');
}

/** Pattern 3: `{data, pagination: {prev, next}}`. */
export function dataEnvelope<T>(data: T[], prev: string | null, next: string | null) {
  return { data, pagination: { prev, next } };
}
