/**
 * One benchmark server process (started by bench/run.ts): the real crewplan app (buildApp) on the
 * seeded database, plus two bare Fastify instances that serve captured response bytes (the floor):
 * one without a logger and one with the production pino logger writing to /dev/null. On PostgreSQL
 * the plain one also serves them after the listening connection's round trip (`/floor-synced/`).
 * Prints `{"port", "floorPort", "loggedFloorPort"}` on stdout once listening.
 *
 * Environment: BENCH_SQLITE_PATH or BENCH_DATABASE_URL (+ BENCH_PG_SCHEMA), BENCH_SECRET_KEY,
 * BENCH_API_ONLY=1 (scale runs: the app only), SMTP_* and BENCH_WORKERS=1 (the callback_offers case's
 * mail server and polling workers), BENCH_LOG_SQL=1 (each statement's text on stderr).
 *
 * The workers that poll the database (the callback runner, forced hires, bid turn notices: four
 * statements every 15 s) run only in the callback_offers case's server. Elsewhere a pass landed in
 * the window where a read's statements are counted: each case lasts about 15 s, so it landed there
 * case after case (GET /schedule for a day counted 13 statements, 9 of them its own).
 */
import { openSync } from 'node:fs';
import Fastify, { type FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { subscribeToChanges } from '../src/core/db/change-listener.js';
import { createDatabase } from '../src/core/db/index.js';
import { loggerOptions, productionLogger, requestLog } from '../src/core/logging.js';

const env = process.env;
const config = loadConfig(
  {
    CREWPLAN_DATA_DIR: env.BENCH_DATA_DIR ?? 'bench/.tmp/data',
    // the callback_offers case sends the offers to a mail server of its own
    ...Object.fromEntries(Object.entries(env).filter(([name]) => name.startsWith('SMTP_'))),
  },
  {
    databaseUrl: env.BENCH_DATABASE_URL,
    pgSchema: env.BENCH_PG_SCHEMA,
    sqlitePath: env.BENCH_SQLITE_PATH ?? 'bench/.tmp/bench.sqlite',
    sqliteSynchronous: 'FULL',
    secretKey: Buffer.from(env.BENCH_SECRET_KEY ?? 'bench-secret-key'),
    // The benchmark is one client hammering one credential: rate limits would answer 429.
    rateLimitPerMinute: 0,
    tokenRateLimitPerMinute: 0,
    logLevel: 'silent',
    ...(env.BENCH_WORKERS ? {} : { callbackRunnerPollMs: 0 }),
  },
);

const handle = createDatabase(config);
if (env.BENCH_LOG_SQL) handle.queryLog.add((text) => process.stderr.write(`[sql ${handle.stats.queries}] ${text}\n`));
const app = await buildApp(config, { handle, logger: false, migrate: false });
// Requests whose response has not closed, counted on Node's server rather than by Fastify hooks on
// the app, which would add their cost to every request measured against the floor. Only a count: a
// map holding each response until it closed kept the requests that wait on PostgreSQL alive across
// minor garbage collections, and the server then spent a fifth of its time collecting them
// (docs/performance.md). A response autocannon abandons at the end of a run closes with its connection.
let running = 0;
app.server.on('request', (_request, response) => {
  running += 1;
  response.once('close', () => {
    running -= 1;
  });
});
const inFlight = () => running;

// Auth cost: the same trivial handler with and without the bearer hook.
app.get('/bench/ping', { schema: { hide: true } }, async () => ({ ok: true }));
await app.register(
  async (scope) => {
    scope.addHook('onRequest', scope.requireBearer);
    scope.get('/ping', { schema: { hide: true } }, async () => ({ ok: true }));
  },
  { prefix: '/bench/auth' },
);
await app.listen({ port: 0, host: '127.0.0.1' });
const portOf = (instance: FastifyInstance) => (instance.server.address() as { port: number }).port;

if (env.BENCH_API_ONLY) {
  process.stdout.write(`${JSON.stringify({ port: portOf(app) })}\n`);
} else {
  const payloads = new Map<string, { contentType: string; body: Buffer }>();
  let maxRss = process.memoryUsage().rss;
  setInterval(() => {
    maxRss = Math.max(maxRss, process.memoryUsage().rss);
  }, 100).unref();

  const floor = async (logger: boolean | object) => {
    const bare = Fastify({ ...loggerOptions(logger), bodyLimit: 64 * 1024 * 1024 });
    if (logger) await bare.register(requestLog);
    bare.get<{ Params: { name: string } }>('/floor/:name', async (request, reply) => {
      const payload = payloads.get(request.params.name);
      if (!payload) return reply.code(404).send();
      return reply.header('content-type', payload.contentType).send(payload.body);
    });
    return bare;
  };
  const plain = await floor(false);
  // PostgreSQL: the floor with the round trip every bearer request makes on the listening connection
  // (docs/decisions/0020, 0035), shared as the app shares it by the requests that come while one is
  // on its way. The app's own listener: subscribeToChanges keeps one per database handle.
  if (handle.pgClientConfig) {
    const listener = subscribeToChanges(handle, { onNotice: () => undefined, onListening: () => undefined });
    plain.get<{ Params: { name: string } }>('/floor-synced/:name', async (request, reply) => {
      const payload = payloads.get(request.params.name);
      if (!payload || !(await listener.sync())) return reply.code(404).send();
      return reply.header('content-type', payload.contentType).send(payload.body);
    });
  }
  // Control routes (the orchestrator's side channel) live on the plain floor instance.
  plain.addContentTypeParser('application/octet-stream', { parseAs: 'buffer' }, (_request, body, done) =>
    done(null, body),
  );
  plain.put<{ Params: { name: string }; Querystring: { type: string }; Body: Buffer }>(
    '/control/payload/:name',
    async (request) => {
      payloads.set(request.params.name, { contentType: request.query.type, body: request.body });
      return { stored: request.body.length };
    },
  );
  plain.get('/control/stats', async () => {
    const cpu = process.cpuUsage();
    return { queries: handle.stats.queries, rss: process.memoryUsage().rss, maxRss, cpuMicros: cpu.user + cpu.system };
  });
  // V8's CPU profiler makes the event loop read as ~86% busy while it waits: under it, only the
  // requests in flight tell whether the server is idle.
  const profiling = process.execArgv.some((flag) => flag.startsWith('--cpu-prof'));
  // Answers once no app request is in flight and the event loop has been idle for a moment: what
  // autocannon left running when it stopped must not be counted in the next measurement.
  plain.get('/control/idle', async () => {
    const began = Date.now();
    let quiet = 0;
    while (quiet < 3 && Date.now() - began < 120_000) {
      const before = performance.eventLoopUtilization();
      await new Promise((resolve) => setTimeout(resolve, 100));
      const busy = performance.eventLoopUtilization(before).utilization;
      quiet = inFlight() === 0 && (profiling || busy < 0.2) ? quiet + 1 : 0;
    }
    return { waited_ms: Date.now() - began, in_flight: inFlight() };
  });
  plain.post('/control/reset-rss', async () => {
    maxRss = process.memoryUsage().rss;
    return { maxRss };
  });
  // Production logging, as buildApp sets it up (src/core/logging.ts), writing to /dev/null.
  const logged = await floor(productionLogger('info', openSync('/dev/null', 'w')));
  await plain.listen({ port: 0, host: '127.0.0.1' });
  await logged.listen({ port: 0, host: '127.0.0.1' });
  process.stdout.write(
    `${JSON.stringify({ port: portOf(app), floorPort: portOf(plain), loggedFloorPort: portOf(logged) })}\n`,
  );
}

process.once('SIGTERM', () => {
  void app.close().finally(() => process.exit(0));
});
