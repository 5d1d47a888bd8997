import { orgColumns } from './db/org-rows.js';
import { v7 as timeOrderedUuid } from 'uuid';
import type { Generated, Insertable } from 'kysely';
import type { AuthContext } from './auth/context.js';
import { compiledOnce } from './db/compiled-once.js';
import { type Db, withTransaction } from './db/transaction.js';
import { appendToLogChain } from './log-chain.js';
import { nowUtc } from './time.js';

/** The transactional outbox: one typed event per system-log row, committed with it (webhooks deliver them). */
export interface OutboxEventTable {
  id: Generated<number>;
  organization_id: number;
  /** Unique event id (UUID) receivers use to recognise a retried delivery. */
  event_id: string;
  /** The log's action, e.g. `shift.created`. */
  type: string;
  /** JSON text: see {@link OutboxPayload}. */
  payload: string;
  created_at: string;
  /**
   * The creating transaction's id on PostgreSQL (set by the column's default), 0 on SQLite: the
   * outbox is read in (tx_id, id) order (migration 1020).
   */
  tx_id: Generated<number>;
}

declare module './db/types.js' {
  interface Database {
    outbox_event: OutboxEventTable;
  }
}

export interface OutboxPayload {
  id: string;
  type: string;
  created_at: string;
  organization_id: number;
  data: {
    entity_type: string | null;
    entity_id: string | null;
    description: string;
    actor: { user_id: number | null; name: string; client_id: string };
    before: unknown;
    after: unknown;
  };
}

export interface LogEntry {
  /** Typed event name, e.g. `shift.created`, `time_off.approved`. */
  action: string;
  /** Readable text after the actor's name: "created shift for John Doe: 2026-03-02 07:00 to …". */
  description: string;
  /** The user who acted (admin_id or the user named in the request); the API client when absent. */
  actorUserId?: number | null;
  /** That user's name when the caller has already read it (saves a query). */
  actorName?: { first_name: string; last_name: string };
  entityType?: string;
  entityId?: number | string;
  before?: unknown;
  after?: unknown;
}

/** What a redacted value becomes in the log and the outbox. */
export const REDACTED = '[redacted]';

/**
 * Keys whose values are secrets wherever they appear in a logged before/after: passwords, client
 * secrets, access and feed tokens, webhook secrets, API keys, and their stored hashes
 * (`password_hash`, `token_hash`, `secret_hash`). Matched on whole `_`-separated words, so
 * `partner_credential_id` or `lock_id` stay readable.
 */
const SECRET_KEY = /(^|_)(password|passwd|secret|token|tokens|api_?key|authorization|cookie)(_|$)/i;

/**
 * crewplan's own secret formats inside any text: client secrets, access tokens, feed tokens, callback offer tokens,
 * webhook secrets, password hashes (Argon2id in the PHC format; scrypt before it).
 */
const SECRET_TEXT = new RegExp(
  [
    String.raw`\b(?:cps|cpt|cpf|cpo|whsec)_[A-Za-z0-9_-]{16,}`,
    String.raw`scrypt\$[0-9$]+[A-Za-z0-9_-]+\$[A-Za-z0-9_-]+`,
    String.raw`\$argon2(?:id|i|d)\$[\w=,$+/]+`,
  ].join('|'),
  'g',
);

/**
 * A copy of a logged value with every secret replaced by {@link REDACTED}: the value of any key
 * that names a secret, and any text in one of crewplan's secret formats. Handlers log request
 * bodies (undeclared fields included) and rows, so the log redacts here, once, rather than
 * trusting each caller to leave secrets out.
 */
export function redactSecrets(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return value.replace(SECRET_TEXT, REDACTED);
  if (value === null || typeof value !== 'object') return value;
  if (depth > 32) return REDACTED; // deeper than any logged shape: not walked, so not kept
  if (Array.isArray(value)) return value.map((item) => redactSecrets(item, depth + 1));
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    copy[key] = SECRET_KEY.test(key) && item !== undefined && item !== null ? REDACTED : redactSecrets(item, depth + 1);
  }
  return copy;
}

async function resolveActor(
  trx: Db,
  auth: AuthContext,
  actorUserId: number | null | undefined,
  known?: LogEntry['actorName'],
) {
  if (actorUserId) {
    const user =
      known ??
      (await orgColumns(trx, 'user_account', auth.orgId, ['first_name', 'last_name'])
        .where('id', '=', actorUserId)
        .executeTakeFirst());
    if (user) return { userId: actorUserId, name: `${user.first_name} ${user.last_name}`.trim() };
  }
  return { userId: null, name: `API client ${auth.clientId}` };
}

/**
 * Writes the system-log row for a change, and its typed event in the outbox (delivered to webhooks
 * by a background worker), in the caller's transaction: a change, its log entry and its event are
 * committed together or not at all.
 */
export async function writeLog(trx: Db, auth: AuthContext, given: LogEntry): Promise<void> {
  // the chain's head is taken and moved in one transaction (src/core/log-chain.ts)
  if (!trx.isTransaction) return withTransaction(trx, (inner) => writeLog(inner, auth, given));
  const entry: LogEntry = {
    ...given,
    description: redactSecrets(given.description) as string,
    before: redactSecrets(given.before),
    after: redactSecrets(given.after),
  };
  const { userId, name } = await resolveActor(trx, auth, entry.actorUserId, entry.actorName);
  const createdAt = nowUtc();
  const description = `${name} ${entry.description}`;
  const entityId = entry.entityId === undefined ? null : String(entry.entityId);
  const changes =
    entry.before === undefined && entry.after === undefined
      ? null
      : JSON.stringify({ before: entry.before ?? null, after: entry.after ?? null });
  await appendToLogChain(trx, auth.orgId, [
    {
      organization_id: auth.orgId,
      created_at: createdAt,
      action: entry.action,
      entity_type: entry.entityType ?? null,
      entity_id: entityId,
      description,
      actor_user_id: userId,
      actor_name: name,
      client_id: auth.clientId,
      changes,
    },
  ]);
  // time-ordered (UUIDv7): each new id lands at the end of the unique index instead of on a random
  // page of it, which the commit would then write out (measured: 205 → 147 µs an insert, fsync included)
  const eventId = timeOrderedUuid();
  const payload: OutboxPayload = {
    id: eventId,
    type: entry.action,
    created_at: createdAt,
    organization_id: auth.orgId,
    data: {
      entity_type: entry.entityType ?? null,
      entity_id: entityId,
      description,
      actor: { user_id: userId, name, client_id: auth.clientId },
      before: entry.before ?? null,
      after: entry.after ?? null,
    },
  };
  await insertOutboxQuery(trx, {
    organization_id: auth.orgId,
    event_id: eventId,
    type: entry.action,
    payload: JSON.stringify(payload),
    created_at: createdAt,
  });
}

/** writeLog about one entity whose type is the action's first part: `assignment.deleted` is about an assignment. */
export const logAction = (
  trx: Db,
  auth: AuthContext,
  action: string,
  entityId: number | string,
  entry: Omit<LogEntry, 'action' | 'entityType' | 'entityId'>,
) => writeLog(trx, auth, { action, entityType: action.slice(0, action.indexOf('.')), entityId, ...entry });

const insertOutboxQuery = compiledOnce((db: Db, row: Insertable<OutboxEventTable>) =>
  db.insertInto('outbox_event').values(row),
);
