import { Type, type Static } from '@sinclair/typebox';
import { Id, LinkRef, Nullable, PathId, Staffing } from '../../core/schemas.js';

const MinQualified = Type.Array(
  Type.Object({ qualifier_id: Id, count: Type.Integer({ minimum: 1, maximum: 10_000 }) }),
  { maxItems: 50, description: 'of those on duty, at least `count` holding each qualifier' },
);

export const GroupMinimumBody = Type.Object({
  min_on_duty: Type.Integer({ minimum: 0, maximum: 10_000, description: 'people on duty the group needs' }),
  min_qualified: Type.Optional(MinQualified),
});
export type GroupMinimumBody = Static<typeof GroupMinimumBody>;

export const GroupMinimumParams = Type.Object({ group_id: PathId });

export const GroupMinimumResponse = Type.Object({
  assignment_group_id: Type.Integer(),
  name: Type.String(),
  min_on_duty: Type.Integer(),
  min_qualified: Type.Array(
    Type.Object({ qualifier_id: Type.Integer(), shortcode: Nullable(Type.String()), count: Type.Integer() }),
  ),
  assignment_ids: Type.Array(Type.Integer()),
});
export type GroupMinimumResponse = Static<typeof GroupMinimumResponse>;

const GroupRef = Type.Object({ id: Type.Integer(), name: Type.String(), color: Type.String() });

/** Extension: a group's staffing on a schedule day. */
export const ScheduleGroupStaffing = Type.Object({
  group: GroupRef,
  start: Nullable(Type.String({ description: "the first occurrence's start" })),
  end: Nullable(Type.String({ description: "the last occurrence's end" })),
  staffing: Staffing,
});
export type ScheduleGroupStaffing = Static<typeof ScheduleGroupStaffing>;

/** Extension: a group short on a day, an entry of GET /vacancies beside the assignments' own. */
export const GroupVacancy = Type.Object({
  group: GroupRef,
  date: Type.String(),
  start: Nullable(Type.String()),
  end: Nullable(Type.String()),
  needed: Type.Integer(),
  scheduled: Type.Integer(),
  open: Type.Integer({ description: 'people missing' }),
  qualifier_shortfalls: Staffing.properties.qualifier_shortfalls,
  short_from: Nullable(Type.String()),
  short_until: Nullable(Type.String()),
  people: Type.Array(LinkRef, { description: "who is on the group's assignments" }),
});
export type GroupVacancy = Static<typeof GroupVacancy>;
