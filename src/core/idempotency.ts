import { createHash } from 'node:crypto';
import { seal, sealingKey, unseal } from './sealed.js';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import type { Generated } from 'kysely';
import { deleteOrgRows, orgRows } from './db/org-rows.js';
import { badRequest, conflict, invalidParams, isUniqueViolation } from './errors.js';
import { addRouteHook, takesAnyOf } from './route-hooks.js';

/**
 * `Idempotency-Key` on POST and PUT (a crewplan extension): the first response to a key is stored
 * and a retry with the same key and the same request gets it again, so a create runs at most once.
 * Keys are scoped per organization and kept 24 hours. See docs/security.md.
 */
export interface IdempotencyKeyTable {
  id: Generated<number>;
  organization_id: number;
  idempotency_key: string;
  /** sha256 of method, URL and body: the same key with another request is refused. */
  fingerprint: string;
  /** Null while the first request is still running. */
  status_code: number | null;
  content_type: string | null;
  /** The first response, encrypted (see core/sealed.ts): it may hold a secret shown once. */
  response_body: string | null;
  created_at: string;
}

declare module './db/types.js' {
  interface Database {
    idempotency_key: IdempotencyKeyTable;
  }
}

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const REPLAY_HEADER = 'Idempotent-Replayed';
const KEY_TTL_MS = 24 * 60 * 60 * 1000;
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
const KEYED_METHODS = new Set(['POST', 'PUT']);

function fingerprintOf(request: FastifyRequest): string {
  return createHash('sha256')
    .update(`${request.method} ${request.url}\n${JSON.stringify(request.body ?? null)}`)
    .digest('hex');
}

/**
 * Stored responses are sealed (`core/sealed.ts`, a key derived from the server key for this
 * purpose): a create may answer with a secret shown only once (a webhook's signing secret, a
 * calendar feed's URL), and the replay store must not keep it readable in the database.
 */
const replayKey = (secretKey: Buffer) => sealingKey(secretKey, 'crewplan idempotency replay v1');

const inProgress = () => conflict('A request with the same Idempotency-Key is still being processed.');

const HeaderSchema = {
  type: 'string',
  description: 'crewplan extension: a retry with the same key and body gets the first answer (24 h, per organization)',
};

/** Documents the header on every keyed route of the scope (the value is checked in the preHandler). */
function documentHeader(route: RouteOptions) {
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  if (!methods.some((method) => KEYED_METHODS.has(method)) || !route.schema || route.schema.hide) return;
  const headers = (route.schema.headers ?? { type: 'object', properties: {} }) as {
    properties?: Record<string, unknown>;
  };
  route.schema = {
    ...route.schema,
    headers: { ...headers, properties: { ...headers.properties, [IDEMPOTENCY_HEADER]: HeaderSchema } },
  };
}

async function idempotencyPlugin(app: FastifyInstance) {
  app.addHook('onRoute', documentHeader);

  /** Requests that hold a pending key row, by row id, to be completed in onSend. */
  const pendingRows = new WeakMap<FastifyRequest, number>();
  /** A pending row older than this belongs to a request that died (crash, lost connection). */
  const abandonedAfterMs = Math.max(app.config.requestTimeoutMs, 1_000) * 2;
  const bodyKey = replayKey(app.config.secretKey);

  async function replayOrReserve(request: FastifyRequest, reply: FastifyReply, key: string) {
    const orgId = request.auth.orgId;
    const now = Date.now();
    await deleteOrgRows(app.db, 'idempotency_key', orgId)
      .where('created_at', '<', new Date(now - KEY_TTL_MS).toISOString())
      .execute();
    const fingerprint = fingerprintOf(request);
    const existing = await orgRows(app.db, 'idempotency_key', orgId)
      .where('idempotency_key', '=', key)
      .executeTakeFirst();
    if (existing) {
      if (existing.fingerprint !== fingerprint) {
        throw invalidParams('The Idempotency-Key has already been used with a different request.');
      }
      if (existing.status_code !== null) {
        const body = unseal(bodyKey, existing.response_body ?? '');
        if (body === undefined)
          throw conflict(
            'The first response to this Idempotency-Key can no longer be read; send the request with a new key.',
          );
        return reply
          .header(REPLAY_HEADER, 'true')
          .status(existing.status_code)
          .type(existing.content_type ?? 'application/json; charset=utf-8')
          .send(body);
      }
      if (existing.created_at >= new Date(now - abandonedAfterMs).toISOString()) throw inProgress();
      await app.db.deleteFrom('idempotency_key').where('id', '=', existing.id).execute();
    }
    try {
      const row = await app.db
        .insertInto('idempotency_key')
        .values({
          organization_id: orgId,
          idempotency_key: key,
          fingerprint,
          status_code: null,
          content_type: null,
          response_body: null,
          created_at: new Date(now).toISOString(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      pendingRows.set(request, row.id);
    } catch (error) {
      if (isUniqueViolation(error)) throw inProgress();
      throw error;
    }
    return undefined;
  }

  const keyedRoute = takesAnyOf(KEYED_METHODS);
  addRouteHook(app, 'preHandler', keyedRoute, async (request: FastifyRequest, reply: FastifyReply) => {
    if (!KEYED_METHODS.has(request.method) || !request.auth) return undefined;
    const key = request.headers[IDEMPOTENCY_HEADER];
    if (key === undefined) return undefined;
    if (typeof key !== 'string' || !KEY_PATTERN.test(key)) {
      throw badRequest('The Idempotency-Key header must be 1 to 255 visible ASCII characters.');
    }
    return replayOrReserve(request, reply, key);
  });

  /** Keeps a successful response for retries; any other outcome frees the key for a corrected retry. */
  addRouteHook(app, 'onSend', keyedRoute, async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const rowId = pendingRows.get(request);
    if (rowId === undefined) return payload;
    pendingRows.delete(request);
    const succeeded = reply.statusCode >= 200 && reply.statusCode < 300 && typeof payload === 'string';
    try {
      if (succeeded) {
        await app.db
          .updateTable('idempotency_key')
          .set({
            status_code: reply.statusCode,
            content_type: String(reply.getHeader('content-type') ?? ''),
            response_body: seal(bodyKey, payload),
          })
          .where('id', '=', rowId)
          .execute();
      } else {
        await app.db.deleteFrom('idempotency_key').where('id', '=', rowId).execute();
      }
    } catch (error) {
      request.log.error({ err: error }, 'idempotency key not stored');
    }
    return payload;
  });
}

export default fp(idempotencyPlugin, { name: 'crewplan-idempotency' });
