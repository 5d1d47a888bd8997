import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { LRUCache } from 'lru-cache';
import type { Kysely } from 'kysely';
import type { DatabaseHandle, Dialect } from './db/index.js';
import type { Database } from './db/types.js';
import { addRouteHook, CHANGE_METHODS, takesAnyOf } from './route-hooks.js';

/**
 * Computed responses kept in memory while nothing has changed: GET /schedule for 2,000 users is
 * hundreds of kilobytes of JSON built from a dozen queries and every rotation's arithmetic, and
 * the same period is read again and again between changes.
 *
 * Whether an entry still holds is told by its stamp, taken before the data is read (so an entry is
 * never older than its stamp says) and compared on every read:
 * - this process's count of write statements (`stats.writes`): its own changes, through a request
 *   or not (tests' fixtures, the CLI in-process);
 * - the data revision read with the bearer token or session (no statement of its own, see
 *   {@link dataRevisionSql}): on SQLite the connection's `data_version`, which moves when another
 *   connection (the CLI, another server process) commits; on PostgreSQL the organization's
 *   `revision`, raised after every successful change request by any process, so servers sharing a
 *   database never serve each other's stale schedule, plus its log's `log_chain_head.revision`,
 *   raised by every log entry in the entry's own transaction, written in a request or not (the
 *   callback runner, workers): GET /logs needs no check of its own. A process that dies between a
 *   commit and the organization's raise would leave entries stale: they also expire after ENTRY_TTL_MS.
 */
const ENTRY_TTL_MS = 5 * 60_000;

/**
 * The SQL expression of the data revision, selected beside the organization `o` by the credential
 * lookups. On PostgreSQL a sum of two counters that only rise: it changes whenever either does.
 */
export function dataRevisionSql(dialect: Dialect): string {
  return dialect === 'sqlite'
    ? '(select data_version from pragma_data_version)'
    : 'o.revision + coalesce((select h.revision from log_chain_head h where h.organization_id = o.id), 0)';
}

interface Entry {
  stamp: string;
  body: Buffer;
}

export class ResponseCache {
  /** Bodies by key, at most maxBytes of them (least recently used dropped first), each for ENTRY_TTL_MS. */
  private readonly entries: LRUCache<string, Entry>;
  private readonly building = new Map<string, { stamp: string; body: Promise<Buffer> }>();

  constructor(maxBytes: number) {
    this.entries = new LRUCache<string, Entry>({
      maxSize: maxBytes,
      maxEntrySize: maxBytes / 2,
      sizeCalculation: (entry) => Math.max(1, entry.body.length),
      ttl: ENTRY_TTL_MS,
    });
  }

  /** The body kept under key with this stamp, or the one build() makes (shared by concurrent callers). */
  async getOrBuild(key: string, stamp: string, build: () => Promise<Buffer>): Promise<Buffer> {
    const kept = this.entries.get(key);
    if (kept && kept.stamp === stamp) return kept.body;
    const running = this.building.get(key);
    if (running && running.stamp === stamp) return running.body;
    const body = build();
    this.building.set(key, { stamp, body });
    try {
      const built = await body;
      this.entries.set(key, { stamp, body: built });
      return built;
    } finally {
      if (this.building.get(key)?.body === body) this.building.delete(key);
    }
  }
}

/**
 * Raises an organization's revision: responses computed before it no longer hold (PostgreSQL's
 * sign; SQLite's is data_version). Change requests call it, and so do CLI commands that change
 * an organization's records behind the servers' backs.
 */
export async function raiseOrganizationRevision(db: Kysely<Database>, orgId: number): Promise<void> {
  await db
    .updateTable('organization')
    .set((eb) => ({ revision: eb('revision', '+', 1) }))
    .where('id', '=', orgId)
    .execute();
}

/** PostgreSQL: after a successful change request, before its response leaves, raises the organization's revision. */
async function raiseRevision(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (!CHANGE_METHODS.has(request.method) || !request.auth || reply.statusCode >= 400) return;
  try {
    await raiseOrganizationRevision(app.db, request.auth.orgId);
  } catch (error) {
    // The change itself is committed; entries expire by their TTL if this failed.
    request.log.error({ err: error }, 'could not raise the organization revision');
  }
}

interface CachePluginOptions {
  maxBytes: number;
  handle: DatabaseHandle;
}

/**
 * On the /v1 scope: `reply.sendCached(key, build)` serves a computed JSON body from the cache; on
 * PostgreSQL every successful change request raises its organization's revision.
 */
async function responseCachePlugin(app: FastifyInstance, { maxBytes, handle }: CachePluginOptions) {
  const cache = maxBytes > 0 ? new ResponseCache(maxBytes) : undefined;
  // the zone too: another process may change it without raising the revision, and bodies write times in it
  const stampOf = (request: FastifyRequest) =>
    request.auth.orgRevision === undefined
      ? undefined
      : `${request.auth.orgRevision}:${request.auth.timezone}:${handle.stats.writes}`;
  if (handle.dialect === 'postgres') {
    addRouteHook(app, 'onSend', takesAnyOf(CHANGE_METHODS), async (request: FastifyRequest, reply: FastifyReply) => {
      await raiseRevision(app, request, reply);
    });
  }
  async function sendBody(reply: FastifyReply, key: string, build: () => Promise<Buffer>) {
    const request = reply.request;
    const stamp = cache ? stampOf(request) : undefined;
    const body =
      cache && stamp !== undefined
        ? await cache.getOrBuild(`${request.auth.orgId}|${request.baseUrl}|${key}`, stamp, build)
        : await build();
    return reply.type('application/json; charset=utf-8').send(body);
  }
  app.decorateReply('sendCached', function (this: FastifyReply, key: string, build: () => Promise<unknown>) {
    return sendBody(this, key, async () => Buffer.from(this.serialize(await build()) as string));
  });
  app.decorateReply('sendCachedJson', function (this: FastifyReply, key: string, build: () => Promise<Buffer>) {
    return sendBody(this, key, build);
  });
}

declare module 'fastify' {
  interface FastifyReply {
    /** Sends the JSON of build()'s result, from the response cache when it still holds. */
    sendCached(key: string, build: () => Promise<unknown>): Promise<FastifyReply>;
    /** The same for a body build() has already written as JSON (in the route's response schema). */
    sendCachedJson(key: string, build: () => Promise<Buffer>): Promise<FastifyReply>;
  }
}

export default fp(responseCachePlugin, { name: 'crewplan-response-cache' });
