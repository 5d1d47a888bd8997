import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../test/helpers/server.js';
import { loadConfig } from '../config.js';
import webhookRoutes from '../resources/webhooks/routes.js';
import { strictValidatorFactory } from './strict-input.js';
import { createDatabase, type DatabaseHandle } from './db/index.js';
import { migrateToLatest } from './db/migrator.js';
import metricsPlugin from './metrics.js';

// The plugin on a small app (a route that fails on purpose), then as app.ts registers it.
let app: FastifyInstance;
let handle: DatabaseHandle;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'crewplan-metrics-'));
  const config = loadConfig(
    { CREWPLAN_DATA_DIR: dir },
    { secretKey: Buffer.from('k'), sqlitePath: join(dir, 'm.sqlite') },
  );
  handle = createDatabase(config);
  await migrateToLatest(handle.db);
  app = Fastify({
    logger: false,
    schemaController: { compilersFactory: { buildValidator: strictValidatorFactory() as never } },
  });
  app.decorate('db', handle.db);
  app.decorate('config', config);
  await app.register(metricsPlugin, { token: 'metrics-secret', handle });
  app.get('/v1/things/:id', async (_request, reply) => reply.status(200).send({ ok: true }));
  app.get('/v1/broken', async () => {
    throw new Error('boom');
  });
  await app.register(webhookRoutes, { prefix: '/v1' });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await handle.close();
  rmSync(dir, { recursive: true, force: true });
});

const scrape = () =>
  app.inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer metrics-secret' } });

describe('GET /metrics', () => {
  it('requires the metrics token, not an API token', async () => {
    for (const headers of [{}, { authorization: 'Bearer wrong' }]) {
      const response = await app.inject({ method: 'GET', url: '/metrics', headers });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({
        status: 401,
        error: 'unauthorized',
        error_message: 'The metrics token is not valid.',
      });
      expect(response.headers['www-authenticate']).toBe('Bearer');
    }
  });

  it('counts requests and latency per route template, and 5xx as errors', async () => {
    await app.inject({ method: 'GET', url: '/v1/things/1' });
    await app.inject({ method: 'GET', url: '/v1/things/2' });
    await app.inject({ method: 'GET', url: '/v1/broken' });
    const response = await scrape();
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain/);
    const text = response.body;
    expect(text).toContain('crewplan_http_requests_total{method="GET",route="/v1/things/:id",status_code="200"} 2');
    expect(text).toContain(
      'crewplan_http_request_duration_seconds_count{method="GET",route="/v1/things/:id",status_code="200"} 2',
    );
    expect(text).toContain('crewplan_http_errors_total{method="GET",route="/v1/broken",status_code="500"} 1');
    expect(text).not.toContain('route="/v1/things/1"');
  });

  it('reports database statements and the webhook outbox depth', async () => {
    const text = (await scrape()).body;
    expect(text).toMatch(/crewplan_db_queries_total \d+/);
    expect(text).toContain('crewplan_webhook_outbox_depth 0');
    expect(text).toContain('crewplan_process_cpu_seconds_total');
  });
});

describe('metrics without a token', () => {
  it('has no /metrics route at all (off by default)', async () => {
    const bare = Fastify({ logger: false });
    await bare.register(metricsPlugin, { token: undefined, handle });
    const response = await bare.inject({ method: 'GET', url: '/metrics' });
    expect(response.statusCode).toBe(404);
    await bare.close();
  });
});

describe('/metrics on the real server', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ metricsToken: 'scrape-token' });
  });
  afterAll(() => server.close());

  it('refuses an organization bearer token and serves the metrics token', async () => {
    const org = await server.newOrg();
    await org.get('/users');
    await org.get('/users/999999');
    const asTenant = await org.get('/metrics');
    expect(asTenant.status).toBe(401);
    expect(asTenant.text).not.toContain('crewplan_http_requests_total');
    const response = await server.request('GET', '/metrics', { token: 'scrape-token' });
    expect(response.status).toBe(200);
    expect(response.text).toContain('crewplan_http_requests_total{method="GET",route="/v1/users",status_code="200"} 1');
    expect(response.text).toContain(
      'crewplan_http_request_duration_seconds_bucket' +
        '{le="0.005",method="GET",route="/v1/users/:user_id",status_code="404"}',
    );
    expect(response.text).toContain('crewplan_webhook_outbox_depth');
    expect(response.text).toMatch(/crewplan_db_queries_total \d+/);
    if (server.app.dbHandle.pool) expect(response.text).toContain('crewplan_db_pool_connections{state="total"}');
  });

  it('has no /metrics route when METRICS_TOKEN is unset', async () => {
    const bare = await startServer();
    try {
      const org = await bare.newOrg();
      expect((await org.get('/metrics')).status).toBe(404);
    } finally {
      await bare.close();
    }
  });
});
