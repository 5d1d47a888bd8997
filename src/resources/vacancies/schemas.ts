import { Type, type Static } from '@sinclair/typebox';
import { DateStr, Id, LocalDateTime, Nullable, LinkRef, NullableString } from '../../core/schemas.js';

export const VacanciesQuery = Type.Object({
  start: LocalDateTime,
  end: LocalDateTime,
  assignment_id: Type.Optional(Id),
});

export const CandidatesQuery = Type.Object({
  assignment_id: Id,
  date: DateStr,
  list_id: Type.Optional(Id),
});

export const Vacancy = Type.Object({
  assignment: LinkRef,
  date: Type.String({ description: "the occurrence's date" }),
  start: Type.String({ description: "the occurrence's start" }),
  end: Type.String({ description: "the occurrence's end" }),
  needed: Type.Integer(),
  scheduled: Type.Integer(),
  open: Type.Integer({ description: 'seats open' }),
  qualifier_shortfalls: Type.Array(
    Type.Object({
      id: Type.Integer(),
      shortcode: NullableString(),
      needed: Type.Integer(),
      have: Type.Integer(),
    }),
  ),
  short_from: Nullable(Type.String({ description: 'first moment the occurrence is short' })),
  short_until: Nullable(Type.String({ description: 'end of the last moment it is short' })),
  people: Type.Array(LinkRef, { description: 'who is on it' }),
});
export type Vacancy = Static<typeof Vacancy>;

export const CandidatesResponse = Type.Object({
  vacancy: Vacancy,
  candidates: Type.Array(Type.Object({ user: LinkRef, position: Type.Integer() }), {
    description: 'free, qualified people within the hour limits, in contact order',
  }),
  skipped: Type.Array(Type.Object({ user: LinkRef, reason: Type.String() })),
});
