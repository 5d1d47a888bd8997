import { Type, type Static } from '@sinclair/typebox';
import { Id, IsoDateTime, Nullable, UserRef, SuccessWith, NullableString } from '../../core/schemas.js';

export const DEFAULT_LEASE_SECONDS = 300;
export const MAX_LEASE_SECONDS = 3600;

export const BulletinBoardResponse = Type.Object({
  content: NullableString(),
  last_updated_by: Nullable(UserRef),
  last_updated_at: Nullable(IsoDateTime),
});
export type BulletinBoardResponse = Static<typeof BulletinBoardResponse>;

export const PutBulletinBoardBody = Type.Object({
  admin_id: Id,
  content: Type.String({ maxLength: 65_535, description: 'HTML; sanitized on input' }),
  lock_id: Type.Optional(
    Type.String({ maxLength: 64, description: 'the editing lease this write is made under (extension)' }),
  ),
});
export type PutBulletinBoardBody = Static<typeof PutBulletinBoardBody>;

export const PutBulletinBoardResponse = SuccessWith({
  bulletin_board: BulletinBoardResponse,
});

export const LockBody = Type.Object({
  admin_id: Id,
  ttl_seconds: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: MAX_LEASE_SECONDS,
      description: `lease length, default ${DEFAULT_LEASE_SECONDS}`,
    }),
  ),
});
export type LockBody = Static<typeof LockBody>;

export const LockResponse = Type.Object({
  lock_id: Type.String(),
  admin: UserRef,
  expires_at: IsoDateTime,
});
export type LockResponse = Static<typeof LockResponse>;

export const LockStatusResponse = Type.Object({
  locked: Type.Boolean(),
  admin: Nullable(UserRef),
  expires_at: Nullable(IsoDateTime),
});

export const ReleaseQuery = Type.Object({
  lock_id: Type.Optional(Type.String({ maxLength: 64 })),
  admin_id: Type.Optional(Id),
});
export type ReleaseQuery = Static<typeof ReleaseQuery>;
