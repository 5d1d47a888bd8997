import { Type, type Static } from '@sinclair/typebox';
import { Id, Nullable, ShortText } from '../../core/schemas.js';

/** The creator, `{id, name}` with a string id as the sample shows; null when an API client created it. */
const FilterUser = Nullable(Type.Object({ id: Type.String(), name: Type.String() }));

/** What both forms of a filter start with. */
const filterFields = { id: Type.String(), label: Type.String(), created_on: Type.String() };

export const FilterResponse = Type.Object({ ...filterFields, user: FilterUser });
export type FilterResponse = Static<typeof FilterResponse>;

export const FilterSingleResponse = Type.Object({ ...filterFields, deleted: Type.String(), user: FilterUser });
export type FilterSingleResponse = Static<typeof FilterSingleResponse>;

export const FilterBody = Type.Object({
  label: ShortText({ minLength: 1 }),
  user_id: Type.Optional(Id),
});
export type FilterBody = Static<typeof FilterBody>;
