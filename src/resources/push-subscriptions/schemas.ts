import { Type, type Static } from '@sinclair/typebox';
import { Nullable, NullableInput, PathId } from '../../core/schemas.js';

/** The browser's `PushSubscription.toJSON()`. */
export const SubscribeBody = Type.Object({
  endpoint: Type.String({ minLength: 1, maxLength: 2000, description: "the push service's https URL" }),
  expirationTime: Type.Optional(NullableInput(Type.Number({ minimum: 0, maximum: 8_640_000_000_000_000 }))),
  keys: Type.Object({
    p256dh: Type.String({ minLength: 1, maxLength: 200, description: 'P-256 public key, base64url' }),
    auth: Type.String({ minLength: 1, maxLength: 100, description: 'auth secret, base64url' }),
  }),
});
export type SubscribeBody = Static<typeof SubscribeBody>;

export const PushSubscriptionResponse = Type.Object({
  id: Type.Integer(),
  endpoint: Type.String(),
  created_at: Type.String({ description: 'local datetime' }),
});

export const PushKeyResponse = Type.Object({
  enabled: Type.Boolean({ description: 'false: Web Push is not configured on this server (VAPID_SUBJECT)' }),
  public_key: Nullable(Type.String({ description: "the VAPID public key (the subscription's applicationServerKey)" })),
});

export const UserSubscriptionParams = Type.Object({ user_id: PathId, id: PathId });
