import { Type, type Static } from '@sinclair/typebox';
import { Id, LocalDateTime, Nullable, NullableInput, PageLimit, ShortText } from '../../core/schemas.js';

export const PAGE_SIZE = 50;

const HoursSetting = (description: string) => Type.Integer({ minimum: 0, maximum: 8760, description });

export const ForcedListBody = Type.Object({
  enabled: Type.Boolean({ description: 'start forced hires by themselves (the worker)' }),
  start_within_hours: HoursSetting('a vacancy starting within this many hours, its callback ended unfilled'),
  time_off_buffer_hours: HoursSetting('not forced within this many hours after approved time off ends'),
  long_tour_hours: HoursSetting('a tour (unbroken work) of this many hours or more … (0: no tour buffer)'),
  long_tour_buffer_hours: HoursSetting('… keeps its worker from being forced this many hours after it ends'),
  initiated_by: Type.Union([Type.Null(), Id]),
  work_type_id: Type.Optional(NullableInput(Id)),
  assignment_ids: Type.Array(Id, { maxItems: 500, description: 'the assignments whose vacancies the list covers' }),
  last_forced: Type.Optional(
    Type.Array(Type.Object({ user_id: Id, last_forced: Type.Union([Type.Null(), LocalDateTime]) }), {
      maxItems: 1000,
      description: 'set (or clear, null) when members were last forced, e.g. from paper records',
    }),
  ),
});
export type ForcedListBody = Static<typeof ForcedListBody>;

export const ForcedListMember = Type.Object({
  position: Type.Integer(),
  user_id: Type.Integer(),
  name: Type.String(),
  last_forced: Nullable(Type.String()),
  date_of_hire: Nullable(Type.String()),
  buffer: Nullable(
    Type.String({ description: 'the buffer the member is inside now, in the words a forced hire gives; null: none' }),
  ),
});

export const ForcedListResponse = Type.Object({
  group_id: Type.Integer(),
  enabled: Type.Boolean(),
  start_within_hours: Type.Integer(),
  time_off_buffer_hours: Type.Integer(),
  long_tour_hours: Type.Integer(),
  long_tour_buffer_hours: Type.Integer(),
  initiated_by: Nullable(Type.Integer()),
  work_type_id: Nullable(Type.Integer()),
  assignment_ids: Type.Array(Type.Integer()),
  members: Type.Array(ForcedListMember, { description: 'in forced order: never forced, longest since, seniority' }),
});
export type ForcedListResponse = Static<typeof ForcedListResponse>;

export const ForceHireBody = Type.Object({
  assignment_id: Id,
  start: LocalDateTime,
  end: LocalDateTime,
  ordered_by: Id,
  group_id: Type.Optional(Id),
  notes: Type.Optional(NullableInput(ShortText({ maxLength: 1000 }))),
});
export type ForceHireBody = Static<typeof ForceHireBody>;

export const ExplainedMemberSchema = Type.Object({
  position: Type.Integer(),
  user_id: Type.Integer(),
  name: Type.String(),
  last_forced: Nullable(Type.String()),
  date_of_hire: Nullable(Type.String()),
  verdict: Type.Union([Type.Literal('forced'), Type.Literal('skipped'), Type.Literal('not reached')]),
  reason: Nullable(Type.String()),
});

export const ForcedHireResponse = Type.Object({
  id: Type.Integer(),
  status: Type.Union([Type.Literal('forced'), Type.Literal('nobody eligible')]),
  trigger: Type.Union([Type.Literal('admin'), Type.Literal('auto')]),
  group_id: Type.Integer(),
  assignment_id: Type.Integer(),
  date: Type.String(),
  start: Type.String(),
  end: Type.String(),
  user_id: Nullable(Type.Integer()),
  shift_id: Nullable(Type.Integer()),
  ordered_by: Nullable(Type.Integer()),
  callback_id: Nullable(Type.Integer()),
  reason: Type.String(),
  notes: Nullable(Type.String()),
  order: Type.Array(ExplainedMemberSchema),
  rules: Type.Unknown({
    description:
      "the rules in force: the forced list's buffers, the zone and fatigue rules (JSON); null before they were kept",
  }),
  rules_hash: Nullable(Type.String({ description: 'SHA-256 of the rules as stored' })),
  contacts: Type.Array(
    Type.Object({
      channel: Type.String({ description: "the channel's method (`Email`, `Text (SMS)` …)" }),
      at: Type.String({ description: 'UTC instant' }),
      result: Type.String({
        description: 'sent, held (SMS text pacing: a sent contact follows when it goes out), failed or unavailable',
      }),
      receipt: Nullable(Type.String({ description: "the provider's message id when it gives one" })),
      detail: Nullable(Type.String()),
    }),
    { description: 'every message sent (or not) to tell the person forced, oldest first' },
  ),
  created_at: Type.String(),
});
export type ForcedHireResponse = Static<typeof ForcedHireResponse>;

export const ForcedHirePage = Type.Object({
  data: Type.Array(ForcedHireResponse),
  pagination: Type.Object({ prev: Nullable(Type.String()), next: Nullable(Type.String()) }),
});

export const ListForcedHiresQuery = Type.Object({
  group_id: Type.Optional(Id),
  assignment_id: Type.Optional(Id),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
  limit: Type.Optional(PageLimit(PAGE_SIZE)),
});
