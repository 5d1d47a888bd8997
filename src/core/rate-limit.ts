import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.js';
import { ApiError } from './errors.js';

/**
 * Requests per minute, per credential on /v1 and per client address on the token endpoint
 * (`config.rateLimitScope = 'token'`). Runs as a preHandler, after the bearer hook, so that
 * the credential is known. Counters live in this process (one instance per deployment).
 */
interface RateLimitOptions {
  config: Pick<Config, 'rateLimitPerMinute' | 'tokenRateLimitPerMinute'>;
}

const TOKEN_KEY_PREFIX = 'token:';

function isTokenScope(request: FastifyRequest): boolean {
  return request.routeOptions.config?.rateLimitScope === 'token';
}

async function rateLimitPlugin(app: FastifyInstance, { config }: RateLimitOptions) {
  const { rateLimitPerMinute, tokenRateLimitPerMinute } = config;
  if (rateLimitPerMinute === 0 && tokenRateLimitPerMinute === 0) return;

  await app.register(rateLimit, {
    global: true,
    hook: 'preHandler',
    timeWindow: 60_000,
    enableDraftSpec: true,
    keyGenerator: (request) =>
      isTokenScope(request) ? `${TOKEN_KEY_PREFIX}${request.ip}` : `credential:${request.auth?.credentialId ?? 'none'}`,
    max: (_request, key) => (key.startsWith(TOKEN_KEY_PREFIX) ? tokenRateLimitPerMinute : rateLimitPerMinute),
    allowList: (request) => {
      if (request.routeOptions.config?.rateLimitScope === 'none') return true;
      if (isTokenScope(request)) return tokenRateLimitPerMinute === 0;
      return !request.auth || rateLimitPerMinute === 0;
    },
    errorResponseBuilder: (_request, context) =>
      new ApiError(429, 'too_many_requests', `Too many requests. Retry in ${context.after}.`),
  });
}

export default fp(rateLimitPlugin, { name: 'crewplan-rate-limit' });
