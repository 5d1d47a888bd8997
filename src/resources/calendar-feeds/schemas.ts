import { Type, type Static } from '@sinclair/typebox';
import { Id, IsoDateTime, Nullable, ShortText, UserRef, NullableString } from '../../core/schemas.js';

export const CreateFeedBody = Type.Object(
  {
    user_id: Type.Optional(Id),
    assignment_id: Type.Optional(Id),
    name: Type.Optional(ShortText({ description: 'a note to recognise the feed by' })),
  },
  {
    description: "Exactly one of user_id (the user's shifts and time off) and assignment_id (the assignment's shifts).",
  },
);
export type CreateFeedBody = Static<typeof CreateFeedBody>;

export const FeedQuery = Type.Object({
  user_id: Type.Optional(Id),
  assignment_id: Type.Optional(Id),
});

const AssignmentRef = Type.Object({ id: Type.Integer(), name: Type.String(), href: Type.String() });

export const FeedResponse = Type.Object({
  id: Type.Integer(),
  kind: Type.Union([Type.Literal('user'), Type.Literal('assignment')]),
  user: Nullable(UserRef),
  assignment: Nullable(AssignmentRef),
  name: NullableString(),
  created_at: IsoDateTime,
  revoked_at: Nullable(IsoDateTime),
});
export type FeedResponse = Static<typeof FeedResponse>;

export const CreatedFeedResponse = Type.Composite([
  FeedResponse,
  Type.Object({ url: Type.String({ description: 'the secret feed URL; shown only in this response' }) }),
]);
