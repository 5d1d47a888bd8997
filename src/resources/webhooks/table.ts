import type { Generated, Selectable } from 'kysely';

export interface WebhookEndpointTable {
  id: Generated<number>;
  organization_id: number;
  url: string;
  /**
   * HMAC key shared with the receiver, in clear only in rows written before migration 1400 and not
   * yet sealed (each server seals them when it starts); '' otherwise.
   */
  secret: string;
  /** The HMAC key sealed with the server key (src/core/sealed.ts; `openWebhookSecret`). */
  secret_sealed: string | null;
  /** JSON array of patterns: `*`, `shift.*`, `shift.created` */
  event_types: string;
  description: string | null;
  /**
   * The last outbox event handled (delivered, skipped as not subscribed, or given up on), as its
   * place in the outbox's order: (`cursor_tx_id`, `cursor_event_id`) = the event's (tx_id, id).
   */
  cursor_event_id: number;
  cursor_tx_id: Generated<number>;
  /** Consecutive failed attempts at the event after the cursor. */
  failed_attempts: number;
  /** UTC instant before which the next attempt waits (backoff); null = now. */
  next_attempt_at: string | null;
  /** UTC instant until which one worker owns this endpoint. */
  lease_until: string | null;
  created_at: string;
  deleted_at: string | null;
}

export interface WebhookDeliveryTable {
  id: Generated<number>;
  organization_id: number;
  endpoint_id: number;
  outbox_event_id: number;
  event_id: string;
  event_type: string;
  attempt: number;
  /** delivered | failed (will be retried) | abandoned (retries exhausted; the worker moved on) */
  state: string;
  response_status: number | null;
  error: string | null;
  duration_ms: number;
  created_at: string;
}

export type WebhookEndpointRow = Selectable<WebhookEndpointTable>;
export type WebhookDeliveryRow = Selectable<WebhookDeliveryTable>;

declare module '../../core/db/types.js' {
  interface Database {
    webhook_endpoint: WebhookEndpointTable;
    webhook_delivery: WebhookDeliveryTable;
  }
}
