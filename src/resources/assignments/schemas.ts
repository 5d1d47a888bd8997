import { Type, type Static } from '@sinclair/typebox';
import {
  Color,
  DateStr,
  Id,
  LocalDateTime,
  LongText,
  Nullable,
  NullableInput,
  PathId,
  ShortText,
  SuccessWith,
  NullableString,
} from '../../core/schemas.js';
import { qualifierFields } from '../qualifiers/schemas.js';

export const LOCATION_FIELDS = ['address', 'city', 'state', 'country', 'zip', 'latitude', 'longitude'] as const;
export type LocationField = (typeof LOCATION_FIELDS)[number];

export const LocationResponse = Type.Object({
  address: NullableString(),
  city: NullableString(),
  state: NullableString(),
  country: NullableString(),
  zip: NullableString(),
  latitude: NullableString(),
  longitude: NullableString(),
});
const input = () => Type.Optional(NullableInput(ShortText()));
const LocationInput = Type.Object({
  address: input(),
  city: input(),
  state: input(),
  country: input(),
  zip: input(),
  latitude: input(),
  longitude: input(),
});
export type LocationInput = Static<typeof LocationInput>;

export const QualifierNeededResponse = Type.Object({
  ...qualifierFields,
  minimum_staffing: Type.Integer(),
});

const assignmentFields = {
  id: Type.Integer(),
  position: Type.Integer(),
  name: Type.String(),
  date: Type.String({ description: 'date of the first occurrence (the single record shows it as a datetime)' }),
  start: Type.String({ description: 'first occurrence start, datetime' }),
  end: Type.String({ description: 'first occurrence end, datetime' }),
  positions_to_fill: Type.Integer(),
  is_work_shift: Type.Boolean(),
  self_scheduling: Type.Boolean(),
  self_scheduling_requires_approval: Type.Boolean(),
  service_eligible: Type.Boolean(),
  hide_open_slots: Type.Boolean(),
  color: Type.String(),
  location: Nullable(LocationResponse),
  rrule: Nullable(Type.String({ description: 'extension: RFC 5545 rule; null when the assignment does not recur' })),
  until: Nullable(Type.String({ description: 'extension: last date of the recurrence (date)' })),
  notes: Nullable(Type.String({ description: 'extension' })),
  qualifiers_needed: Type.Array(QualifierNeededResponse, { description: 'extension: qualifier minimums' }),
};

export const AssignmentResponse = Type.Object(assignmentFields);
export type AssignmentResponse = Static<typeof AssignmentResponse>;

export const AssignmentWriteResponse = SuccessWith(assignmentFields);

const QualifierNeededInput = Type.Object({ id: Id, minimum_staffing: Type.Integer({ minimum: 0, maximum: 1000 }) });

const writableFields = {
  name: ShortText({ minLength: 1 }),
  start: LocalDateTime,
  end: LocalDateTime,
  positions_to_fill: Type.Integer({ minimum: 0, maximum: 1000 }),
  position: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
  is_work_shift: Type.Optional(Type.Boolean()),
  self_scheduling: Type.Optional(Type.Boolean()),
  self_scheduling_requires_approval: Type.Optional(Type.Boolean()),
  service_eligible: Type.Optional(Type.Boolean()),
  hide_open_slots: Type.Optional(Type.Boolean()),
  color: Type.Optional(Color),
  location: Type.Optional(NullableInput(LocationInput)),
  rrule: Type.Optional(
    NullableInput(ShortText({ description: 'extension: RFC 5545 rule, default FREQ=DAILY; null = does not recur' })),
  ),
  until: Type.Optional(NullableInput(DateStr)),
  notes: Type.Optional(NullableInput(LongText())),
  qualifiers_needed: Type.Optional(Type.Array(QualifierNeededInput, { maxItems: 100 })),
  admin_id: Type.Optional(Id),
};

export const CreateAssignmentBody = Type.Object(writableFields);
export type CreateAssignmentBody = Static<typeof CreateAssignmentBody>;

export const UpdateAssignmentBody = Type.Partial(Type.Object(writableFields));
export type UpdateAssignmentBody = Static<typeof UpdateAssignmentBody>;

export const GroupLabelResponse = Type.Object({ id: Type.String(), name: Type.String(), color: Type.String() });
export const AdminResponse = Type.Object({ id: Type.String(), name: Type.String(), href: Type.String() });

const IdList = Type.Array(Id, { maxItems: 500 });
const IdOrRef = Type.Union([Id, Type.Object({ id: Id })]);
/** `{ids: [..]}` (also `group_ids`, or `groups` of ids or {id}) or the bare array of ids. */
export const IdsBody = Type.Union([
  Type.Object({
    ids: Type.Optional(IdList),
    group_ids: Type.Optional(IdList),
    groups: Type.Optional(Type.Array(IdOrRef, { maxItems: 500 })),
  }),
  IdList,
]);
export type IdsBody = Static<typeof IdsBody>;
/** The ids a body names; undefined when it names none at all (422). */
export function idsInBody(body: IdsBody): number[] | undefined {
  if (Array.isArray(body)) return body;
  return body.ids ?? body.group_ids ?? body.groups?.map((group) => (typeof group === 'number' ? group : group.id));
}

export const GroupLabelBody = Type.Object({ name: ShortText({ minLength: 1 }), color: Color });
export type GroupLabelBody = Static<typeof GroupLabelBody>;

export const AssignmentGroupParams = Type.Object({ id: PathId, group_id: PathId });

export const FinalizationBody = Type.Object({ date: DateStr, admin_id: Id });
export type FinalizationBody = Static<typeof FinalizationBody>;
export const UnfinalizationBody = Type.Object({ date: Type.Optional(DateStr), admin_id: Type.Optional(Id) });
export type UnfinalizationBody = Static<typeof UnfinalizationBody>;

export const AdminsBody = Type.Union([
  Type.Object({ ids: Type.Optional(IdList), admin_ids: Type.Optional(IdList), admin_id: Type.Optional(Id) }),
  IdList,
]);
export type AdminsBody = Static<typeof AdminsBody>;
/** The user ids a body names; undefined when it names none at all (422). */
export function adminIdsInBody(body: AdminsBody): number[] | undefined {
  if (Array.isArray(body)) return body;
  return body.ids ?? body.admin_ids ?? (body.admin_id ? [body.admin_id] : undefined);
}
