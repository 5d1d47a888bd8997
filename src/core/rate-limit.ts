import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.js';
import { addressBucket, countAttempt } from './auth/attempts.js';
import type { Db } from './db/transaction.js';
import { tooManyRequests } from './errors.js';
import { addRouteHook } from './route-hooks.js';

/**
 * Requests per minute per credential on /v1, and per client address on every route without a
 * bearer token. Runs as a preHandler, after the bearer hook, so that the credential is known.
 * - A credential's budget and an address's on the web app, docs and health routes live in this
 *   process (a budget for load, kept off the database on the hot path).
 * - The public routes whose URL token or signature is the credential (`config.publicRateLimit`:
 *   offer links, inbound SMS, calendar feeds) and the token endpoint (`config.rateLimitScope =
 *   'token'`) are counted per address in the database ({@link limitRequestsByAddress}), so that
 *   one budget holds across every process.
 */
interface RateLimitOptions {
  config: Pick<Config, 'rateLimitPerMinute' | 'publicRateLimitPerMinute'>;
}

/** Routes counted elsewhere (in the database) or not at all. */
function countedElsewhere(request: FastifyRequest): boolean {
  const routeConfig = request.routeOptions.config;
  return (
    routeConfig?.rateLimitScope === 'none' ||
    routeConfig?.rateLimitScope === 'token' ||
    routeConfig?.publicRateLimit !== undefined
  );
}

async function rateLimitPlugin(app: FastifyInstance, { config }: RateLimitOptions) {
  const { rateLimitPerMinute, publicRateLimitPerMinute } = config;
  if (publicRateLimitPerMinute > 0) {
    const limits = {
      offers: limitRequestsByAddress(app.db, 'offers', publicRateLimitPerMinute),
      feeds: limitRequestsByAddress(app.db, 'feeds', publicRateLimitPerMinute),
      sms: limitRequestsByAddress(app.db, 'sms', publicRateLimitPerMinute),
    };
    const publicRoute = (route: RouteOptions) => route.config?.publicRateLimit !== undefined;
    addRouteHook(app, 'preHandler', publicRoute, async (request: FastifyRequest, reply: FastifyReply) => {
      const name = request.routeOptions.config?.publicRateLimit;
      if (name) await limits[name](request, reply);
    });
  }
  if (rateLimitPerMinute === 0 && publicRateLimitPerMinute === 0) return;

  await app.register(rateLimit, {
    global: true,
    hook: 'preHandler',
    timeWindow: 60_000,
    enableDraftSpec: true,
    keyGenerator: (request) => (request.auth ? `credential:${request.auth.credentialId}` : `address:${request.ip}`),
    max: (request) => (request.auth ? rateLimitPerMinute : publicRateLimitPerMinute),
    allowList: (request) =>
      countedElsewhere(request) || (request.auth ? rateLimitPerMinute === 0 : publicRateLimitPerMinute === 0),
    errorResponseBuilder: (_request, context) => tooManyRequests(`Too many requests. Retry in ${context.after}.`),
  });
}

export default fp(rateLimitPlugin, { name: 'crewplan-rate-limit' });

/**
 * preHandler of the token endpoint: requests per minute per client address, counted in the
 * database (core/auth/attempts.ts), so the budget is one for every process and survives a restart.
 */
export function limitTokenRequests(db: Db, perMinute: number) {
  return limitRequestsByAddress(db, 'token', perMinute);
}

/**
 * preHandler counting the requests of one client address to the routes named `name` per minute
 * in the database, one budget for every process; 429 with Retry-After past it.
 */
export function limitRequestsByAddress(db: Db, name: string, perMinute: number) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    if (perMinute === 0) return;
    const count = await countAttempt(db, `${name}-address:${addressBucket(request.ip)}`, {
      max: perMinute,
      windowMs: 60_000,
    });
    reply.header('RateLimit-Limit', perMinute);
    reply.header('RateLimit-Remaining', Math.max(0, perMinute - count.attempts));
    reply.header('RateLimit-Reset', count.retryAfterSeconds);
    if (!count.allowed) {
      reply.header('Retry-After', count.retryAfterSeconds);
      throw tooManyRequests(`Too many requests. Retry in ${count.retryAfterSeconds} seconds.`);
    }
  };
}
