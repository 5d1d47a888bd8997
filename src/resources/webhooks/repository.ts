import type { Insertable, Updateable } from 'kysely';
import { claimLease, leaseFree } from '../../core/db/lease.js';
import type { Db } from '../../core/db/transaction.js';
import { notFound } from '../../core/errors.js';
import type { WebhookDeliveryTable, WebhookEndpointRow, WebhookEndpointTable } from './table.js';

export async function findEndpointOrThrow(db: Db, orgId: number, id: number): Promise<WebhookEndpointRow> {
  const row = await db
    .selectFrom('webhook_endpoint')
    .selectAll()
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!row) throw notFound('Webhook');
  return row;
}

export function listEndpoints(db: Db, orgId: number): Promise<WebhookEndpointRow[]> {
  return db
    .selectFrom('webhook_endpoint')
    .selectAll()
    .where('organization_id', '=', orgId)
    .where('deleted_at', 'is', null)
    .orderBy('id')
    .execute();
}

export async function insertEndpoint(db: Db, values: Insertable<WebhookEndpointTable>): Promise<number> {
  const { id } = await db.insertInto('webhook_endpoint').values(values).returning('id').executeTakeFirstOrThrow();
  return id;
}

export async function updateEndpoint(db: Db, orgId: number, id: number, values: Updateable<WebhookEndpointTable>): Promise<void> {
  await db.updateTable('webhook_endpoint').set(values).where('organization_id', '=', orgId).where('id', '=', id).execute();
}

/** The newest outbox event of the organization: a new endpoint starts after it. */
export async function latestEventId(db: Db, orgId: number): Promise<number> {
  const row = await db
    .selectFrom('outbox_event')
    .select('id')
    .where('organization_id', '=', orgId)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.id ?? 0;
}

export async function anyActiveEndpoint(db: Db): Promise<boolean> {
  const row = await db.selectFrom('webhook_endpoint').select('id').where('deleted_at', 'is', null).limit(1).executeTakeFirst();
  return row !== undefined;
}

/** Endpoints whose backoff has passed and that no worker holds (across organizations: the worker's view). */
export function dueEndpoints(db: Db, now: string, limit: number): Promise<WebhookEndpointRow[]> {
  return db
    .selectFrom('webhook_endpoint')
    .selectAll()
    .where('deleted_at', 'is', null)
    .where((eb) => eb.or([eb('next_attempt_at', 'is', null), eb('next_attempt_at', '<=', now)]))
    .where(leaseFree(now))
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** Takes the endpoint for this worker until `until`; false when another worker got it first. */
export function claimEndpoint(db: Db, endpoint: WebhookEndpointRow, now: string, until: string): Promise<boolean> {
  return claimLease(db, 'webhook_endpoint', endpoint, now, until);
}

export function pendingEvents(db: Db, orgId: number, afterId: number, createdBefore: string, limit: number) {
  return db
    .selectFrom('outbox_event')
    .select(['id', 'event_id', 'type', 'payload'])
    .where('organization_id', '=', orgId)
    .where('id', '>', afterId)
    .where('created_at', '<=', createdBefore)
    .orderBy('id')
    .limit(limit)
    .execute();
}

export async function insertDelivery(db: Db, values: Insertable<WebhookDeliveryTable>): Promise<void> {
  await db.insertInto('webhook_delivery').values(values).execute();
}

export function listDeliveries(db: Db, orgId: number, endpointId: number, options: { beforeId?: number; limit: number }) {
  return db
    .selectFrom('webhook_delivery')
    .selectAll()
    .where('organization_id', '=', orgId)
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
      join.onRef('outbox_event.organization_id', '=', 'webhook_endpoint.organization_id').onRef('outbox_event.id', '>', 'webhook_endpoint.cursor_event_id'),
    )
    .where('webhook_endpoint.deleted_at', 'is', null)
    .select((eb) => eb.fn.countAll<number>().as('depth'))
    .executeTakeFirst();
  return Number(row?.depth ?? 0);
}
