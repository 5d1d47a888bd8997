import { Type, type Static } from '@sinclair/typebox';
import { Id, IsoDateTime, Nullable, PageLimit, NullableString } from '../../core/schemas.js';

const EventTypePattern = Type.String({
  pattern: '^(\\*|[a-z0-9_]+(\\.[a-z0-9_]+)*(\\.\\*)?)$',
  maxLength: 100,
  description: '`*`, a prefix such as `shift.*`, or a type such as `shift.created`',
});

export const CreateWebhookBody = Type.Object({
  url: Type.String({ minLength: 8, maxLength: 2000, description: 'http(s) URL that receives POSTed events' }),
  secret: Type.Optional(Type.String({ minLength: 16, maxLength: 200, description: 'HMAC key; generated when absent' })),
  event_types: Type.Optional(
    Type.Array(EventTypePattern, { minItems: 1, maxItems: 100, description: 'default ["*"]' }),
  ),
  description: Type.Optional(Type.String({ maxLength: 255 })),
});
export type CreateWebhookBody = Static<typeof CreateWebhookBody>;

export const WebhookResponse = Type.Object({
  id: Type.Integer(),
  url: Type.String(),
  event_types: Type.Array(Type.String()),
  description: NullableString(),
  created_at: IsoDateTime,
  failed_attempts: Type.Integer({ description: 'consecutive failures at the oldest undelivered event' }),
  next_attempt_at: Nullable(IsoDateTime),
});
export type WebhookResponse = Static<typeof WebhookResponse>;

export const CreatedWebhookResponse = Type.Intersect([
  WebhookResponse,
  Type.Object({ secret: Type.String({ description: 'shown once, at creation' }) }),
]);

export const DeliveryQuery = Type.Object({
  limit: Type.Optional(PageLimit(50)),
  before_id: Type.Optional(Id),
});

export const DeliveryResponse = Type.Object({
  id: Type.Integer(),
  event_id: Type.String(),
  event_type: Type.String(),
  attempt: Type.Integer(),
  state: Type.Union([Type.Literal('delivered'), Type.Literal('failed'), Type.Literal('abandoned')]),
  response_status: Nullable(Type.Integer()),
  error: NullableString(),
  duration_ms: Type.Integer(),
  created_at: IsoDateTime,
});
