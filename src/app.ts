import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { STATUS_CODES } from 'node:http';
import { dirname, join } from 'node:path';
import type { Duplex } from 'node:stream';
import { fileURLToPath, pathToFileURL } from 'node:url';
import Fastify, { type FastifyInstance, type FastifyPluginAsync, type FastifyReply, type HTTPMethods } from 'fastify';
import formbody from '@fastify/formbody';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import contentType from 'content-type';
import FindMyWay from 'find-my-way';
import { sql, type Kysely } from 'kysely';
import { trustProxyOption, type Config } from './config.js';
import authPlugin from './core/auth/plugin.js';
import { createDatabase, type DatabaseHandle } from './core/db/index.js';
import { migrateToLatest } from './core/db/migrator.js';
import type { Database } from './core/db/types.js';
import {
  badRequest,
  errorHandler,
  headersTooLarge,
  methodNotAllowed,
  notFound,
  requestTimeout,
  unavailable,
  unsupportedMediaType,
} from './core/errors.js';
import { lazySerializers } from './core/lazy-serializers.js';
import idempotencyPlugin from './core/idempotency.js';
import { logCompleted, loggerOptions, productionLogger, requestLog } from './core/logging.js';
import metricsPlugin, { tokenMatches } from './core/metrics.js';
import { startupFacts } from './startup.js';
import { moveFilesIn } from './resources/user-memberships/file-store.js';
import { rejectNulCharacters } from './core/nul-guard.js';
import { readMalformedPathIdsAsMissing } from './core/path-ids.js';
import rateLimitPlugin from './core/rate-limit.js';
import { strictValidatorFactory } from './core/strict-input.js';
import responseCachePlugin from './core/response-cache.js';
import { isLocalDateTime } from './core/time.js';
import publicFeedRoutes from './resources/calendar-feeds/public-routes.js';
import offerRoutes from './resources/callbacks/offers/offer-routes.js';
import smsRoutes from './resources/callbacks/channels/sms-routes.js';
import changeFeedPlugin from './core/change-feed.js';
import webappPlugin, { enforceMemberAccess } from './webapp/plugin.js';
import { EngineCache } from './scheduling/cache.js';
import workersPlugin from './workers.js';

declare module 'fastify' {
  interface FastifyInstance {
    db: Kysely<Database>;
    dbHandle: DatabaseHandle;
    config: Readonly<Config>;
    /** What the scheduling engine computed, kept while nothing it reads changes (src/scheduling/cache.ts). */
    engineCache: EngineCache;
  }
  interface FastifyContextConfig {
    /** `token` for the stricter limit of the token endpoint; `none` to skip rate limiting. */
    rateLimitScope?: 'token' | 'none';
    /**
     * A public route whose token or signature is the credential: its requests are counted per
     * client address in the database under this name (core/rate-limit.ts), shared by every process.
     */
    publicRateLimit?: 'offers' | 'feeds' | 'sms';
  }
}

const RESOURCES_DIR = join(dirname(fileURLToPath(import.meta.url)), 'resources');

/** Every folder under resources/ with a routes file is a resource plugin mounted under /v1. */
async function loadResourcePlugins(): Promise<Array<{ name: string; plugin: FastifyPluginAsync }>> {
  const plugins: Array<{ name: string; plugin: FastifyPluginAsync }> = [];
  for (const name of (await readdir(RESOURCES_DIR)).sort()) {
    for (const file of ['routes.ts', 'routes.js']) {
      const path = join(RESOURCES_DIR, name, file);
      if (!existsSync(path)) continue;
      const module = (await import(pathToFileURL(path).href)) as { default: FastifyPluginAsync };
      plugins.push({ name, plugin: module.default });
      break;
    }
  }
  return plugins;
}

/** Records routes so that a known path with another method answers 405 instead of 404. */
function trackRoutes(app: FastifyInstance) {
  const router = FindMyWay({ ignoreTrailingSlash: true });
  app.addHook('onRoute', (route) => {
    const methods = (Array.isArray(route.method) ? route.method : [route.method]) as HTTPMethods[];
    for (const method of methods) {
      try {
        router.on(method as never, route.url, () => undefined);
      } catch {
        // the same route added twice (HEAD for GET): already known
      }
    }
  });
  return (method: string, url: string): string[] => {
    const path = url.split('?')[0];
    const allowed = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].filter(
      (m) => m !== method && router.find(m as never, path) !== null,
    );
    return allowed;
  };
}

/**
 * Errors Node's HTTP parser answers before Fastify sees a request (headers or URL too large,
 * malformed request line, request timeout), in the spec's error format too.
 */
function clientErrorHandler(this: FastifyInstance, error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const apiError =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? requestTimeout('The request took too long to arrive.')
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? headersTooLarge('The request line or headers are too large.')
        : badRequest('The request is not valid HTTP.');
  const status = apiError.statusCode;
  const body = JSON.stringify(apiError.body());
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\nContent-Type: application/json; ` +
        `charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}

/** Whether the text is JSON to JSON.parse (which takes a __proto__ key as any other). */
const isJson = (text: string) => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

/**
 * The JSON body parser. Clients often send `Content-Type: application/json` on every request,
 * DELETE and body-less POST (approve, deny) included; an empty body is then no body, not a 400.
 * JSON is UTF-8 (RFC 8259): a declared charset other than UTF-8 is refused with 415, and bytes that
 * are not valid UTF-8 with 400, rather than read with replacement characters. A `__proto__` key is
 * refused (400) with a message that names it.
 */
function parseJsonBodies(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'ignore');
  const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    let charset: string | undefined;
    try {
      charset = contentType.parse(request.headers['content-type'] ?? '').parameters.charset?.toLowerCase();
    } catch {
      charset = undefined; // a malformed parameter list: the type itself matched application/json
    }
    if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
      return done(
        unsupportedMediaType(`A JSON body must be UTF-8; the charset ${charset} is not supported.`),
        undefined,
      );
    }
    let text: string;
    try {
      text = utf8.decode(body as Buffer);
    } catch {
      return done(badRequest('The request body is not valid UTF-8.'), undefined);
    }
    if (text === '') return done(null, undefined);
    return parseJson(request, text, (error, parsed) => {
      // the parser refuses a __proto__ key (prototype poisoning) with the error of malformed JSON
      if (error && isJson(text)) return done(badRequest('The request body may not use the key __proto__.'), undefined);
      done(error, parsed);
    });
  });
}

export interface BuildOptions {
  /** Reuse an open database (tests, benchmarks); otherwise one is opened from config. */
  handle?: DatabaseHandle;
  /** Run migrations on start (default true). */
  migrate?: boolean;
  /** pino options for Fastify's logger (a test's stream), or false for none; default: production's */
  logger?: boolean | object;
  /** The built web app served at /app (default web/dist). */
  webDistDir?: string;
}

export async function buildApp(config: Readonly<Config>, options: BuildOptions = {}): Promise<FastifyInstance> {
  const handle = options.handle ?? createDatabase(config);
  if (options.migrate !== false) {
    await migrateToLatest(handle.db);
    // certification files uploaded before migration 1451, from this data directory into the database
    await moveFilesIn(handle.db, config.dataDir);
  }

  const app = Fastify({
    ...loggerOptions(options.logger ?? productionLogger(config.logLevel)),
    bodyLimit: config.bodyLimitBytes,
    requestTimeout: config.requestTimeoutMs,
    connectionTimeout: config.requestTimeoutMs,
    trustProxy: trustProxyOption(config.trustProxy),
    clientErrorHandler,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    // a path that is not valid percent-encoding (`/v1/%zz`): answered before any route, in the spec's format
    frameworkErrors: (_error, request, reply: FastifyReply) => {
      void reply
        .status(400)
        .type('application/json; charset=utf-8')
        .send(badRequest('The request URL is not valid.').body());
      // answered before any route, so without its hooks
      logCompleted(request, reply);
    },
    // no type coercion of bodies, decimal-only numbers in query strings (core/strict-input.ts)
    schemaController: {
      compilersFactory: { buildSerializer: lazySerializers(), buildValidator: strictValidatorFactory() as never },
    },
    ajv: {
      customOptions: {
        // every field that fails is named, not only the first (one message per field: errors.ts)
        allErrors: true,
        // an id is an integer or its digits: `type: ['integer', 'string']` (core/schemas.ts)
        allowUnionTypes: true,
        formats: { 'local-datetime': { type: 'string', validate: isLocalDateTime } },
      },
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.decorate('db', handle.db);
  app.decorate('dbHandle', handle);
  app.decorate('config', config);
  const engineCache = new EngineCache(handle, config.responseCacheBytes);
  app.decorate('engineCache', engineCache);
  app.addHook('onClose', async () => {
    await engineCache.close();
    if (!options.handle) await handle.close();
  });

  // before the not-found handler and every route, so that each response is logged
  await app.register(requestLog);
  const allowedMethods = trackRoutes(app);
  app.addHook('onRoute', readMalformedPathIdsAsMissing);
  app.setErrorHandler(errorHandler);
  parseJsonBodies(app);
  app.addHook('preValidation', rejectNulCharacters);
  app.setNotFoundHandler(async (request, reply) => {
    const allowed = allowedMethods(request.method, request.url);
    if (allowed.length > 0) {
      reply.header('Allow', allowed.join(', '));
      throw methodNotAllowed(request.method);
    }
    throw notFound();
  });

  // First, so that its onResponse hook sees every route and resources can add their gauges.
  await app.register(metricsPlugin, { token: config.metricsToken, handle });
  await app.register(rateLimitPlugin, { config });
  await app.register(formbody, { bodyLimit: config.bodyLimitBytes });
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'crewplan',
        version: '1.0.0',
        description:
          'Crew scheduling service implementing the Workforce Scheduling Service API. Operations marked ' +
          '`x-crewplan-extension` are crewplan extensions beyond the specification.',
      },
      components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearerAuth: [] }],
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  await app.register(authPlugin, { config, handle });
  await app.register(changeFeedPlugin, { handle });

  // The server's front door is the web app; the API lives under /v1 and its reference at /docs.
  app.get('/', { schema: { hide: true } }, async (_request, reply) => reply.redirect('/app', 302));
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { hide: true } }, async (request, reply) => {
    try {
      await sql`select 1`.execute(handle.db);
      // extension: to the operator's bearer token (METRICS_TOKEN), what the server serves (docs/extensions.md)
      const given = /^Bearer (.+)$/i.exec(request.headers.authorization ?? '')?.[1];
      if (config.metricsToken && given && tokenMatches(given, config.metricsToken))
        return { status: 'ok', ...startupFacts(config) };
      return { status: 'ok' };
    } catch {
      return reply.status(503).send(unavailable('The database is not reachable.').body());
    }
  });
  app.get('/v1/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  // Before the routes: its hook of the callback routes (a change wakes the runner) reaches routes added after it.
  await app.register(workersPlugin);
  // Calendar feeds are read by calendar clients without a bearer token: the URL's token is the credential.
  await app.register(publicFeedRoutes);
  // The callback runner's accept/decline links: the link's token is the credential.
  await app.register(offerRoutes);
  // Inbound SMS replies to callback offers: the provider's request signature is the credential.
  await app.register(smsRoutes);
  await app.register(webappPlugin, { distDir: options.webDistDir });

  const resources = await loadResourcePlugins();
  await app.register(
    async (v1) => {
      v1.addHook('onRequest', v1.requireBearer);
      v1.addHook('preValidation', enforceMemberAccess);
      await v1.register(idempotencyPlugin);
      await v1.register(responseCachePlugin, { maxBytes: config.responseCacheBytes, handle });
      for (const { plugin } of resources) await v1.register(plugin);
    },
    { prefix: '/v1' },
  );
  return app;
}
