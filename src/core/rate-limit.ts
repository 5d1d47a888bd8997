import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.js';
import { addressBucket, countAttempt } from './auth/attempts.js';
import type { Db } from './db/transaction.js';
import { tooManyRequests } from './errors.js';

/**
 * Requests per minute per credential on /v1. Runs as a preHandler, after the bearer hook, so that
 * the credential is known. These counters live in this process (a budget for load, kept off the
 * database on the hot path). The token endpoint (`config.rateLimitScope = 'token'`) is limited by
 * {@link limitTokenRequests} instead, in the database.
 */
interface RateLimitOptions {
  config: Pick<Config, 'rateLimitPerMinute'>;
}

function isTokenScope(request: FastifyRequest): boolean {
  return request.routeOptions.config?.rateLimitScope === 'token';
}

async function rateLimitPlugin(app: FastifyInstance, { config }: RateLimitOptions) {
  const { rateLimitPerMinute } = config;
  if (rateLimitPerMinute === 0) return;

  await app.register(rateLimit, {
    global: true,
    hook: 'preHandler',
    timeWindow: 60_000,
    enableDraftSpec: true,
    keyGenerator: (request) => `credential:${request.auth?.credentialId ?? 'none'}`,
    max: rateLimitPerMinute,
    allowList: (request) =>
      request.routeOptions.config?.rateLimitScope === 'none' || isTokenScope(request) || !request.auth,
    errorResponseBuilder: (_request, context) => tooManyRequests(`Too many requests. Retry in ${context.after}.`),
  });
}

export default fp(rateLimitPlugin, { name: 'crewplan-rate-limit' });

/**
 * preHandler of the token endpoint: requests per minute per client address, counted in the
 * database (core/auth/attempts.ts), so the budget is one for every process and survives a restart.
 */
export function limitTokenRequests(db: Db, perMinute: number) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    if (perMinute === 0) return;
    const key = `token-address:${addressBucket(request.ip)}`;
    const count = await countAttempt(db, key, { max: perMinute, windowMs: 60_000 });
    reply.header('RateLimit-Limit', perMinute);
    reply.header('RateLimit-Remaining', Math.max(0, perMinute - count.attempts));
    reply.header('RateLimit-Reset', count.retryAfterSeconds);
    if (!count.allowed) {
      reply.header('Retry-After', count.retryAfterSeconds);
      throw tooManyRequests(`Too many requests. Retry in ${count.retryAfterSeconds} seconds.`);
    }
  };
}
