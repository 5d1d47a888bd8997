import { randomUUID } from 'node:crypto';
import type { Generated } from 'kysely';
import type { AuthContext } from './auth/context.js';
import type { Db } from './db/transaction.js';
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
  entityType?: string;
  entityId?: number | string;
  before?: unknown;
  after?: unknown;
}

async function resolveActor(trx: Db, auth: AuthContext, actorUserId: number | null | undefined) {
  if (actorUserId) {
    const user = await trx
      .selectFrom('user_account')
      .select(['first_name', 'last_name'])
      .where('organization_id', '=', auth.orgId)
      .where('id', '=', actorUserId)
      .executeTakeFirst();
    if (user) return { userId: actorUserId, name: `${user.first_name} ${user.last_name}`.trim() };
  }
  return { userId: null, name: `API client ${auth.clientId}` };
}

/**
 * Writes the system-log row for a change, and its typed event in the outbox (delivered to webhooks
 * by a background worker), in the caller's transaction: a change, its log entry and its event are
 * committed together or not at all.
 */
export async function writeLog(trx: Db, auth: AuthContext, entry: LogEntry): Promise<void> {
  const { userId, name } = await resolveActor(trx, auth, entry.actorUserId);
  const createdAt = nowUtc();
  const description = `${name} ${entry.description}`;
  const entityId = entry.entityId === undefined ? null : String(entry.entityId);
  const changes = entry.before === undefined && entry.after === undefined ? null : JSON.stringify({ before: entry.before ?? null, after: entry.after ?? null });
  await trx
    .insertInto('system_log')
    .values({
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
    })
    .execute();
  await insertOutboxEvent(trx, auth, entry, { createdAt, description, entityId, userId, name });
}

/** The event row of the outbox, in the same transaction as its log row. */
async function insertOutboxEvent(
  trx: Db,
  auth: AuthContext,
  entry: LogEntry,
  logged: { createdAt: string; description: string; entityId: string | null; userId: number | null; name: string },
): Promise<void> {
  const { createdAt, description, entityId, userId, name } = logged;
  const eventId = randomUUID();
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
  await trx
    .insertInto('outbox_event')
    .values({ organization_id: auth.orgId, event_id: eventId, type: entry.action, payload: JSON.stringify(payload), created_at: createdAt })
    .execute();
}
