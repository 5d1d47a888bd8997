import { formatIsoOffset } from '../../core/time.js';
import type { WebhookDeliveryRow, WebhookEndpointRow } from './table.js';
import type { WebhookResponse } from './schemas.js';

export function serializeWebhook(row: WebhookEndpointRow, timezone: string): WebhookResponse {
  return {
    id: row.id,
    url: row.url,
    event_types: JSON.parse(row.event_types) as string[],
    description: row.description,
    created_at: formatIsoOffset(row.created_at, timezone)!,
    failed_attempts: row.failed_attempts,
    next_attempt_at: formatIsoOffset(row.next_attempt_at, timezone),
  };
}

export function serializeDelivery(row: WebhookDeliveryRow, timezone: string) {
  return {
    id: row.id,
    event_id: row.event_id,
    event_type: row.event_type,
    attempt: row.attempt,
    state: row.state as 'delivered' | 'failed' | 'abandoned',
    response_status: row.response_status,
    error: row.error,
    duration_ms: row.duration_ms,
    created_at: formatIsoOffset(row.created_at, timezone)!,
  };
}
