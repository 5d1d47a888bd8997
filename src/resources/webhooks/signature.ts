import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'x-crewplan-signature';
export const TIMESTAMP_HEADER = 'x-crewplan-timestamp';
export const EVENT_ID_HEADER = 'x-crewplan-event-id';
export const EVENT_TYPE_HEADER = 'x-crewplan-event-type';
export const ATTEMPT_HEADER = 'x-crewplan-delivery-attempt';

/** A new endpoint secret (the HMAC key), when the client names none. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
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
