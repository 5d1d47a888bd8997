import { Type, type Static } from '@sinclair/typebox';
import { Id, PathId } from '../../core/schemas.js';

export const IdsBody = Type.Object({ ids: Type.Array(Id, { maxItems: 1000 }) });
export type IdsBody = Static<typeof IdsBody>;

export const UserGroupItem = Type.Object({ id: Type.Integer(), name: Type.String() });

export const UserQualifierItem = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  shortcode: Type.Union([Type.String(), Type.Null()]),
  ranking: Type.Integer(),
});

export const AddQualifierBody = Type.Object({
  id: Id,
  ranking: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
});
export type AddQualifierBody = Static<typeof AddQualifierBody>;

export const ReplaceQualifiersBody = Type.Object({
  ids: Type.Array(Type.Object({ id: Id, ranking: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })) }), {
    maxItems: 1000,
  }),
});
export type ReplaceQualifiersBody = Static<typeof ReplaceQualifiersBody>;

export const UserQualifierParams = Type.Object({ user_id: PathId, id: PathId });
export type UserQualifierParams = Static<typeof UserQualifierParams>;
