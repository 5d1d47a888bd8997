import { Type, type Static } from '@sinclair/typebox';
import { DateStr, Id, SuccessWith } from '../../core/schemas.js';

export const BatchItem = Type.Object({
  id: Id,
  dates: Type.Optional(Type.Array(DateStr, { maxItems: 366 })),
  start: Type.Optional(DateStr),
  end: Type.Optional(DateStr),
});
export type BatchItem = Static<typeof BatchItem>;

export const BatchBody = Type.Object({
  assignments: Type.Array(BatchItem, { minItems: 1, maxItems: 200 }),
  admin_id: Id,
});
export type BatchBody = Static<typeof BatchBody>;

export const BatchResult = SuccessWith({
  success_messages: Type.Optional(Type.Array(Type.String())),
  error_messages: Type.Optional(Type.Array(Type.String())),
});
export type BatchResult = Static<typeof BatchResult>;
