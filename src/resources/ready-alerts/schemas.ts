import { Type, type Static } from '@sinclair/typebox';
import {
  Flag,
  Id,
  IsoDateTime,
  Nullable,
  NullableInput,
  UserRef,
  SuccessWith,
  NullableString,
} from '../../core/schemas.js';
import { ALERT_TYPES, type AlertType } from './table.js';

export const ReadyAlertBody = Type.Object({
  type: Type.Unsafe<AlertType>({
    type: 'string',
    enum: [...ALERT_TYPES],
    description: 'all, title, group, classification or user',
  }),
  ids: Type.Optional(
    NullableInput(
      Type.Array(Type.Union([Id, Type.String({ minLength: 1, maxLength: 255 })]), {
        maxItems: 1000,
        description: 'callback list ids (title), group ids, user ids, or role names (classification); null for all',
      }),
    ),
  ),
  body: Type.String({ minLength: 1, maxLength: 2000 }),
  user_id: Id,
  email: Type.Optional(Flag({ description: 'also send e-mail (0/1 accepted)' })),
});
export type ReadyAlertBody = Static<typeof ReadyAlertBody>;

export const ReadyAlertCreated = SuccessWith({
  id: Type.Integer(),
  recipients: Type.Integer(),
});

export const ReadyAlertResponse = Type.Object({
  id: Type.Integer(),
  type: Type.String(),
  ids: Nullable(Type.Array(Type.Union([Type.Integer(), Type.String()]))),
  body: Type.String(),
  sender: Nullable(UserRef),
  email: Type.Boolean(),
  created_at: IsoDateTime,
  deliveries: Type.Array(
    Type.Object({
      user: Nullable(UserRef),
      channel: Type.String(),
      address: NullableString(),
      state: Type.String(),
      error: NullableString(),
      updated_at: IsoDateTime,
    }),
  ),
});
