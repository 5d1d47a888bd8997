import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { seal, sealingKey, unseal } from '../../core/sealed.js';
import type { WebhookEndpointRow } from './table.js';

export const SIGNATURE_HEADER = 'x-crewplan-signature';
export const TIMESTAMP_HEADER = 'x-crewplan-timestamp';
export const EVENT_ID_HEADER = 'x-crewplan-event-id';
export const EVENT_TYPE_HEADER = 'x-crewplan-event-type';
export const ATTEMPT_HEADER = 'x-crewplan-delivery-attempt';

/** A new endpoint secret (the HMAC key), when the client names none. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

const secretKeyOf = (serverKey: Buffer) => sealingKey(serverKey, 'crewplan webhook secret v1');

/** The columns that store a new endpoint's secret: sealed with the server key, nothing in clear. */
export function storedWebhookSecret(serverKey: Buffer, secret: string): { secret: ''; secret_sealed: string } {
  return { secret: '', secret_sealed: seal(secretKeyOf(serverKey), secret) };
}

/**
 * The endpoint's signing secret: opened with the server key, or the clear secret of a row not
 * sealed yet; undefined when the sealed secret does not open (the server key changed).
 */
export function openWebhookSecret(
  serverKey: Buffer,
  row: Pick<WebhookEndpointRow, 'secret' | 'secret_sealed'>,
): string | undefined {
  return row.secret_sealed === null ? row.secret : unseal(secretKeyOf(serverKey), row.secret_sealed);
}

/** `v1=` + hex HMAC-SHA256 over `${timestamp}.${body}` (timestamp in unix seconds). */
export function signPayload(secret: string, timestamp: number, body: string): string {
  return `v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/** What a receiver does: recompute and compare in constant time. */
export function verifySignature(secret: string, timestamp: number, body: string, signature: string): boolean {
  const expected = Buffer.from(signPayload(secret, timestamp, body));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** Whether an event type matches one of the endpoint's patterns (`*`, `shift.*`, `shift.created`). */
export function matchesEventType(patterns: string[], type: string): boolean {
  return patterns.some(
    (pattern) =>
      pattern === '*' || pattern === type || (pattern.endsWith('.*') && type.startsWith(pattern.slice(0, -1))),
  );
}
