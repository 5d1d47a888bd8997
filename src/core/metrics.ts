import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { DatabaseHandle } from './db/index.js';
import { unauthorized } from './errors.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Present when the metrics plugin is registered: resources add their own gauges to it. */
    metrics?: { registry: Registry };
  }
}

export interface MetricsOptions {
  /** Bearer token that /metrics requires; the route does not exist without one. */
  token: string | undefined;
  handle: DatabaseHandle;
}

export function tokenMatches(given: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

function registerDatabaseGauges(registry: Registry, handle: DatabaseHandle): void {
  new Gauge({
    name: 'crewplan_db_queries_total',
    help: 'Statements run through the query builder since start',
    registers: [registry],
    collect() {
      this.set(handle.stats.queries);
    },
  });
  const pool = handle.pool;
  if (!pool) return;
  new Gauge({
    name: 'crewplan_db_pool_connections',
    help: 'PostgreSQL pool connections by state',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      this.set({ state: 'total' }, pool.totalCount);
      this.set({ state: 'idle' }, pool.idleCount);
      this.set({ state: 'waiting' }, pool.waitingCount);
    },
  });
}

/**
 * Prometheus metrics: request count and latency per route template, errors, database and, when the
 * webhooks resource is loaded, the outbox depth. Served at /metrics behind its own bearer token
 * (METRICS_TOKEN), which is not an API token: tenants cannot read it.
 */
const metricsPlugin: FastifyPluginAsync<MetricsOptions> = async (app: FastifyInstance, options) => {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'crewplan_' });
  registerDatabaseGauges(registry, options.handle);
  const labelNames = ['method', 'route', 'status_code'] as const;
  const requests = new Counter({
    name: 'crewplan_http_requests_total',
    help: 'HTTP requests',
    labelNames,
    registers: [registry],
  });
  const errors = new Counter({
    name: 'crewplan_http_errors_total',
    help: 'HTTP responses with status 5xx',
    labelNames,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'crewplan_http_request_duration_seconds',
    help: 'HTTP request latency',
    labelNames,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  app.decorate('metrics', { registry });

  app.addHook('onResponse', (request, reply, done) => {
    // The route template keeps the label set small; unknown paths share one label.
    const labels = {
      method: request.method,
      route: request.routeOptions.url ?? 'unmatched',
      status_code: String(reply.statusCode),
    };
    requests.inc(labels);
    latency.observe(labels, reply.elapsedTime / 1000);
    if (reply.statusCode >= 500) errors.inc(labels);
    done();
  });

  const token = options.token;
  if (!token) return;
  app.get('/metrics', { schema: { hide: true }, config: { rateLimitScope: 'none' } }, async (request, reply) => {
    const given = /^Bearer (.+)$/i.exec(request.headers.authorization ?? '')?.[1] ?? '';
    if (!tokenMatches(given, token)) {
      reply.header('WWW-Authenticate', 'Bearer');
      return reply.status(401).send(unauthorized('The metrics token is not valid.').body());
    }
    reply.type(registry.contentType);
    return registry.metrics();
  });
};

export default fp(metricsPlugin, { name: 'crewplan-metrics' });
