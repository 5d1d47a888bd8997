import { Type, type Static } from '@sinclair/typebox';
import {
  Hours,
  Id,
  LocalDateTime,
  Nullable,
  NullableInput,
  UserRef,
  UserRefStrId,
  LinkRef,
  PageLimit,
  NullableString,
} from '../../core/schemas.js';
import { nullableText, Staffing } from '../../core/schemas.js';
import { ScheduleWorkType } from '../work-types/schemas.js';
import { ForShift } from './expected-shift.js';

export const MAX_PAGE_ITEMS = 1000;
export const DEFAULT_PAGE_ITEMS = 500;

export const UserNote = nullableText(1000, 'at most 1000 characters');
export const Rrule = nullableText(
  500,
  'extension: RFC 5545 RRULE repeating the first occurrence, e.g. FREQ=WEEKLY;BYDAY=MO',
);
const AdminIds = Type.Union([Id, Type.Array(Id, { minItems: 1, maxItems: 50 })], {
  description: 'approving admin ids, sent as an array',
});
const StatusFilter = Type.Integer({
  minimum: 0,
  maximum: 2,
  description: 'extension: only entries of this status (2 = denied, hidden otherwise); default pending and approved',
});

export const CreateTimeOffBody = Type.Object({
  user_id: Id,
  admin_ids: AdminIds,
  start_date: LocalDateTime,
  end_date: LocalDateTime,
  time_off_type_id: Id,
  status: Type.Optional(
    Type.Union([Type.Literal(0), Type.Literal(1)], { description: '0 pending (default), 1 approved' }),
  ),
  user_note: Type.Optional(UserNote),
  rrule: Type.Optional(Rrule),
  for_shift: Type.Optional(ForShift),
});
export type CreateTimeOffBody = Static<typeof CreateTimeOffBody>;

export const DecisionBody = NullableInput(Type.Object({ admin_id: Type.Optional(Id) }));

export const ListTimeOffsQuery = Type.Object({
  start: LocalDateTime,
  end: LocalDateTime,
  after: Type.Optional(LocalDateTime),
  limit: Type.Optional(PageLimit(DEFAULT_PAGE_ITEMS, MAX_PAGE_ITEMS)),
  status: Type.Optional(StatusFilter),
});
export type ListTimeOffsQuery = Static<typeof ListTimeOffsQuery>;

const TypeRef = Type.Object({ id: Type.Integer(), name: Type.String(), work_code: NullableString() });

export const TimeOffItem = Type.Object({
  id: Type.Integer(),
  time_off_type: TypeRef,
  user: UserRef,
  admin: Nullable(UserRef),
  start: Type.String(),
  end: Type.String(),
  length: Hours,
  real_length: Hours,
  status: Type.Integer({ description: '0 pending, 1 approved (2 denied: only when asked for)' }),
  request_date: NullableString(),
  approval_date: NullableString(),
  acknowledgement_date: NullableString(),
  user_note: NullableString(),
  traded_with: Nullable(UserRef),
});
export type TimeOffItem = Static<typeof TimeOffItem>;

export const TimeOffPage = Type.Object({
  items: Type.Array(TimeOffItem),
  metadata: Type.Object({
    start: Type.String(),
    end: Type.String(),
    page_start: Type.String(),
    page_end: Type.String(),
    links: Type.Object({ prev: NullableString(), next: NullableString() }),
  }),
});

export const SingleTimeOffResponse = Type.Object({
  items: Type.Array(TimeOffItem),
  metadata: Type.Array(Type.Unknown(), { maxItems: 0, description: 'always empty' }),
});

export const UserTimeOffItem = Type.Object({
  id: Type.String(),
  time_off_type: Type.Object({ id: Type.String(), name: Type.String(), work_code: NullableString() }),
  user: UserRefStrId,
  admin: Nullable(UserRefStrId),
  start: Type.String(),
  end: Type.String(),
  rrule: NullableString(),
  status: Type.String(),
  request_date: NullableString(),
  approval_date: NullableString(),
  acknowledgement_date: NullableString(),
  user_note: NullableString(),
  traded_with: Nullable(UserRefStrId),
});
export type UserTimeOffItem = Static<typeof UserTimeOffItem>;

/** Extension: what approving the entry would do to staffing (docs/time-off.md, "Approval impact"). */
export const TimeOffImpact = Type.Object({
  time_off_id: Type.Integer(),
  status: Type.Integer({ description: 'the entry as it stands: 0 pending, 1 approved, 2 denied' }),
  start: Type.String({ description: 'the span looked at: the entry from its start' }),
  end: Type.String({ description: 'to its end (the last occurrence of recurring leave, within 366 days)' }),
  seats_opened: Type.Integer({ description: 'seats the approval would open, over every occurrence' }),
  new_vacancies: Type.Integer({ description: 'occurrences that would be short and are not now' }),
  assignments: Type.Array(
    Type.Object({
      assignment: LinkRef,
      date: Type.String({ description: "the occurrence's date" }),
      start: Type.String(),
      end: Type.String(),
      before: Staffing,
      after: Staffing,
      people: Type.Array(LinkRef, { description: 'who would be on it after the approval' }),
    }),
    { description: 'the occurrences whose staffing the approval changes, by start' },
  ),
  bank: Type.Union(
    [
      Type.Object({
        time_off_type: Type.Object({ id: Type.Integer(), name: Type.String() }),
        hours: Type.Number({ description: 'the hours the approval charges' }),
        balance: Type.Number({ description: "the requester's balance for the type now" }),
        balance_after: Type.Number({ description: 'the balance after the approval' }),
        floor: Type.Union([Type.Number(), Type.Null()], {
          description: "the lowest balance the type's overdraft rule allows (0 refuses any overdraft); null: no bound",
        }),
        allowed: Type.Boolean({ description: 'whether the overdraft rule lets the approval through' }),
      }),
      Type.Null(),
    ],
    {
      description:
        'extension: the bank after approval (docs/time-off.md#overdraft-rules); null when the requester keeps ' +
        'no bank for the type or the entry is no longer pending',
    },
  ),
});
export type TimeOffImpact = Static<typeof TimeOffImpact>;

/** An approved time off as GET /schedule lists it under each day it covers. */
export const ScheduleTimeOff = Type.Object({
  id: Type.Integer(),
  href: Type.String(),
  start: Type.String(),
  end: Type.String(),
  user: LinkRef,
  admin: Nullable(LinkRef),
  time_off_type: Type.Object({
    ...ScheduleWorkType.properties,
    public_name: Type.Optional(
      Type.String({
        description:
          'extension: on a masked type, what those who may not see the type see ("Off"); they get it as ' +
          '`name`, with id 0 and no work code (docs/time-off.md#masked-types)',
      }),
    ),
  }),
  seats: Type.Optional(
    Type.Array(Type.Object({ assignment_id: Type.Integer(), start: Type.String(), end: Type.String() }), {
      description:
        'extension: the scheduled work of the user this day that the time off covers (its assignment, ' +
        'the hours covered); absent when it covers none (docs/schedule.md)',
    }),
  ),
});
export type ScheduleTimeOff = Static<typeof ScheduleTimeOff>;
