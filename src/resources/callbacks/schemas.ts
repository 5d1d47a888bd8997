import { Type, type Static } from '@sinclair/typebox';
import { OverrideReason } from '../fatigue-rules/schemas.js';
import {
  Id,
  IdName,
  PathId,
  LocalDateTime,
  LongText,
  Nullable,
  NullableInput,
  ShortText,
  SuccessWith,
  LinkRef,
  PageLimit,
  NullableString,
} from '../../core/schemas.js';

export const CALLBACK_ORDERINGS = ['rotating', 'hours', 'seniority'] as const;
export const RESPONSE_STATUSES = ['accepted', 'denied', 'no answer'] as const;
export const PAGE_SIZE = 50;

const Instant = Type.String({
  maxLength: 40,
  description: 'iso_datetime with offset, or a datetime read in the organization zone',
});

export const StartCallbackBody = Type.Object({
  list_id: Id,
  initiated_by: Id,
  start: LocalDateTime,
  end: LocalDateTime,
  positions_to_fill: Type.Integer({ minimum: 1, maximum: 1000 }),
  deadline: Instant,
  assignment_id: Type.Optional(NullableInput(Id)),
  work_type_id: Type.Optional(NullableInput(Id)),
  ordering: Type.Optional(
    Type.Union(
      CALLBACK_ORDERINGS.map((o) => Type.Literal(o)),
      { description: 'default rotating' },
    ),
  ),
  scheduled_to: Type.Optional(Instant),
  notes: Type.Optional(NullableInput(LongText({ maxLength: 2000 }))),
});
export type StartCallbackBody = Static<typeof StartCallbackBody>;

/** The assignment occurrence a callback fills, as the engine judged it when the callback started. */
export const CallbackVacancy = Type.Object(
  {
    assignment_id: Type.Integer(),
    date: Type.String(),
    start: Type.String(),
    end: Type.String(),
    needed: Type.Integer(),
    scheduled: Type.Integer(),
    open: Type.Integer(),
    qualifier_shortfalls: Type.Array(
      Type.Object({
        id: Type.Integer(),
        shortcode: NullableString(),
        needed: Type.Integer(),
        have: Type.Integer(),
      }),
    ),
    extra_staffing: Type.Boolean({
      description: 'true: the occurrence had no open seat and no qualifier short; the callback adds staff',
    }),
  },
  { 'x-crewplan-extension': true },
);
export type CallbackVacancy = Static<typeof CallbackVacancy>;

export const StartCallbackResponse = SuccessWith({
  id: Type.Integer(),
  candidates: Type.Array(Type.Object({ user_id: Type.Integer(), position: Type.Integer() })),
  skipped: Type.Array(Type.Object({ user_id: Type.Integer(), reason: Type.String() })),
  vacancy: Nullable(CallbackVacancy),
});

export const RecordResponseBody = Type.Object({
  user_id: Id,
  status: Type.Union(RESPONSE_STATUSES.map((s) => Type.Literal(s))),
  contact_method: Type.Optional(
    NullableInput(ShortText({ maxLength: 50, description: 'e.g. Mobile App, Text (SMS), Phone' })),
  ),
  contact_time: Type.Optional(NullableInput(LocalDateTime)),
  response_time: Type.Optional(NullableInput(LocalDateTime)),
  start_time: Type.Optional(NullableInput(LocalDateTime)),
  end_time: Type.Optional(NullableInput(LocalDateTime)),
  do_not_disturb: Type.Optional(Type.Boolean()),
  auto_accepted: Type.Optional(Type.Boolean()),
  override_reason: OverrideReason,
});
export type RecordResponseBody = Static<typeof RecordResponseBody>;

export const RecordResponseResult = SuccessWith({
  id: Type.Integer(),
  callback_status: Type.String(),
  shift_id: Nullable(Type.Integer()),
});

export const CancelCallbackBody = Type.Object({ admin_id: Id });

export const CallbackUserParams = Type.Object({ id: PathId, user_id: PathId });
export const RevokeOfferQuery = Type.Object({
  admin_id: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 2_147_483_647, description: 'the admin revoking the link (logged)' }),
  ),
});

export const ListCallbacksQuery = Type.Object({
  start: Type.Optional(LocalDateTime),
  end: Type.Optional(LocalDateTime),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
  limit: Type.Optional(PageLimit(PAGE_SIZE)),
});

export const CallbackResponse = Type.Object({
  id: Type.Integer(),
  title: IdName,
  initiated_by: IdName,
  start: Type.String(),
  end: Type.String(),
  positions_to_fill: Type.Integer(),
  scheduled_to: Type.String(),
  started_at: Type.String(),
  ended_at: NullableString(),
  deadline: Type.String(),
  status: Type.String({ description: 'active, filled, partially filled, not filled or cancelled' }),
  assignment_id: Nullable(
    Type.Integer({
      description:
        'extension: the assignment the accepted users are placed on (the seat the callback fills); null when none',
    }),
  ),
});
export type CallbackResponse = Static<typeof CallbackResponse>;

export const CallbackPage = Type.Object({
  data: Type.Array(CallbackResponse),
  pagination: Type.Object({ prev: NullableString(), next: NullableString() }),
});

export const CallbackUserResponse = Type.Object({
  id: Type.String({ description: 'the contacted user id' }),
  position: Type.String(),
  status: Type.String({ description: 'pending, accepted, denied or no answer' }),
  contact_method: NullableString(),
  contact_time: NullableString(),
  response_time: NullableString(),
  start_time: NullableString(),
  end_time: NullableString(),
  uses_opportunity: Type.String(),
  do_not_disturb: Type.String(),
  auto_accepted: Type.String(),
});
export type CallbackUserResponse = Static<typeof CallbackUserResponse>;

export const ScheduleCallback = Type.Object({
  id: Type.Integer(),
  href: Type.String(),
  start: Type.String(),
  end: Type.String(),
  minimum_staffing: Type.Integer(),
  records: Type.Array(
    Type.Object({
      id: Type.Integer(),
      user: LinkRef,
      start: Type.String(),
      end: Type.String(),
      work_site: Type.Null(),
    }),
  ),
  title: LinkRef,
});
export type ScheduleCallback = Static<typeof ScheduleCallback>;
