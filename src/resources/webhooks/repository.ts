import { type ExpressionBuilder, type Insertable, sql, type Updateable } from 'kysely';
import { orgColumns, orgRows, updateOrgRow } from '../../core/db/org-rows.js';
import type { Database } from '../../core/db/types.js';
import { claimLease, leaseFree, leaseHeld } from '../../core/db/lease.js';
import { isPostgres } from '../../core/db/schema.js';
import type { Db } from '../../core/db/transaction.js';
import { notFound } from '../../core/errors.js';
import type { WebhookDeliveryTable, WebhookEndpointRow, WebhookEndpointTable } from './table.js';

export async function findEndpointOrThrow(db: Db, orgId: number, id: number): Promise<WebhookEndpointRow> {
  return orgRows(db, 'webhook_endpoint', orgId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirstOrThrow(() => notFound('Webhook'));
}

export function listEndpoints(db: Db, orgId: number): Promise<WebhookEndpointRow[]> {
  return orgRows(db, 'webhook_endpoint', orgId).where('deleted_at', 'is', null).orderBy('id').execute();
}

export async function insertEndpoint(db: Db, values: Insertable<WebhookEndpointTable>): Promise<number> {
  const { id } = await db.insertInto('webhook_endpoint').values(values).returning('id').executeTakeFirstOrThrow();
  return id;
}

export async function updateEndpoint(
  db: Db,
  orgId: number,
  id: number,
  values: Updateable<WebhookEndpointTable>,
): Promise<void> {
  await updateOrgRow(db, 'webhook_endpoint', orgId, id, values);
}

/** Where an endpoint stands in the outbox: after the event (tx_id, id). */
export interface OutboxCursor {
  txId: number;
  id: number;
}

/**
 * Writes a worker's progress on the endpoint it claimed (`held`, the row as claimed), if the lease
 * is still its own; false when it is not (the worker stalled past it and may have been replaced).
 */
export async function saveProgress(
  db: Db,
  held: WebhookEndpointRow,
  values: Updateable<WebhookEndpointTable>,
): Promise<boolean> {
  const result = await db
    .updateTable('webhook_endpoint')
    .set(values)
    .where('organization_id', '=', held.organization_id)
    .where('id', '=', held.id)
    .where(leaseHeld(held))
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** The newest outbox event of the organization, in the outbox's order: a new endpoint starts after it. */
export async function latestEvent(db: Db, orgId: number): Promise<OutboxCursor> {
  const row = await orgColumns(db, 'outbox_event', orgId, ['tx_id', 'id'])
    .orderBy('tx_id', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return { txId: row?.tx_id ?? 0, id: row?.id ?? 0 };
}

export async function anyActiveEndpoint(db: Db): Promise<boolean> {
  const row = await db
    .selectFrom('webhook_endpoint')
    .select('id')
    .where('deleted_at', 'is', null)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Seals the secrets still stored in clear (rows written before migration 1400). Each row is
 * changed only while it is still in clear, so two servers starting at once seal it once or
 * harmlessly twice (either sealing opens).
 */
export async function sealClearSecrets(
  db: Db,
  sealed: (secret: string) => { secret: ''; secret_sealed: string },
): Promise<number> {
  const rows = await db
    .selectFrom('webhook_endpoint')
    .select(['id', 'secret'])
    .where('secret_sealed', 'is', null)
    .execute();
  for (const row of rows)
    await db
      .updateTable('webhook_endpoint')
      .set(sealed(row.secret))
      .where('id', '=', row.id)
      .where('secret_sealed', 'is', null)
      .execute();
  return rows.length;
}

/** Endpoints whose backoff has passed and that no worker holds (across organizations: the worker's view). */
export function dueEndpoints(db: Db, now: string, limit: number): Promise<WebhookEndpointRow[]> {
  return db
    .selectFrom('webhook_endpoint')
    .selectAll()
    .where(stillDue(now))
    .where(leaseFree(now))
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** Not deleted, and its backoff has passed. */
function stillDue(now: string) {
  return (eb: ExpressionBuilder<Database, 'webhook_endpoint'>) =>
    eb.and([
      eb('deleted_at', 'is', null),
      eb.or([eb('next_attempt_at', 'is', null), eb('next_attempt_at', '<=', now)]),
    ]);
}

/**
 * Takes the endpoint for this worker until `until` while it is still due; the endpoint as claimed
 * (its cursor is the one the previous worker left), or undefined when another worker got it first.
 */
export function claimEndpoint(
  db: Db,
  endpoint: WebhookEndpointRow,
  now: string,
  until: string,
): Promise<WebhookEndpointRow | undefined> {
  return claimLease(db, 'webhook_endpoint', endpoint, now, until, stillDue(now));
}

/**
 * The organization's events after `after`, in the outbox's order (tx_id, id). On PostgreSQL only
 * events of transactions older than every transaction still running (`pg_snapshot_xmin`): any event
 * committed later has a larger tx_id, so the cursor never passes an event not yet visible.
 */
export function pendingEvents(db: Db, orgId: number, after: OutboxCursor, limit: number) {
  return orgColumns(db, 'outbox_event', orgId, ['id', 'tx_id', 'event_id', 'type', 'payload'])
    .where((eb) => eb(eb.refTuple('tx_id', 'id'), '>', eb.tuple(after.txId, after.id)))
    .$if(isPostgres(db), (qb) =>
      qb.where('tx_id', '<', sql<number>`pg_snapshot_xmin(pg_current_snapshot())::text::bigint`),
    )
    .orderBy('tx_id')
    .orderBy('id')
    .limit(limit)
    .execute();
}

export async function insertDelivery(db: Db, values: Insertable<WebhookDeliveryTable>): Promise<void> {
  await db.insertInto('webhook_delivery').values(values).execute();
}

export function listDeliveries(
  db: Db,
  orgId: number,
  endpointId: number,
  options: { beforeId?: number; limit: number },
) {
  return orgRows(db, 'webhook_delivery', orgId)
    .where('endpoint_id', '=', endpointId)
    .$if(options.beforeId !== undefined, (qb) => qb.where('id', '<', options.beforeId!))
    .orderBy('id', 'desc')
    .limit(options.limit)
    .execute();
}

/** Events waiting in the outbox for active endpoints (metrics). */
export async function outboxDepth(db: Db): Promise<number> {
  const row = await db
    .selectFrom('webhook_endpoint')
    .innerJoin('outbox_event', (join) =>
      join
        .onRef('outbox_event.organization_id', '=', 'webhook_endpoint.organization_id')
        .on((eb) =>
          eb(
            eb.refTuple('outbox_event.tx_id', 'outbox_event.id'),
            '>',
            eb.refTuple('webhook_endpoint.cursor_tx_id', 'webhook_endpoint.cursor_event_id'),
          ),
        ),
    )
    .where('webhook_endpoint.deleted_at', 'is', null)
    .select((eb) => eb.fn.countAll<number>().as('depth'))
    .executeTakeFirst();
  return Number(row?.depth ?? 0);
}

/** The organization's endpoints and the event types each takes (the callback runner's webhook channel). */
export function activeEndpointEventTypes(db: Db, orgId: number) {
  return orgColumns(db, 'webhook_endpoint', orgId, ['id', 'event_types']).where('deleted_at', 'is', null).execute();
}
