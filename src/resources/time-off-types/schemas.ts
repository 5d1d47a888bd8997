import { Type, type Static } from '@sinclair/typebox';
import { Color, Flag, NullableInput, NumberOrText, ShortText, NullableString } from '../../core/schemas.js';

const TypeFlag = Flag({ description: 'boolean (1/0 and "true"/"false" are accepted)' });
const BufferHours = NumberOrText(
  Type.Number({ minimum: 0, maximum: 8760, description: 'hours needed between the request and the start' }),
);
const InstanceLimit = NumberOrText(
  Type.Integer({ minimum: 0, maximum: 10_000, description: 'entries per user and calendar year; 0 = unlimited' }),
);

const typeFields = {
  work_code: Type.Optional(NullableInput(ShortText())),
  required_buffer: Type.Optional(BufferHours),
  instance_limit: Type.Optional(InstanceLimit),
  primary_color: Type.Optional(Color),
  secondary_color: Type.Optional(Color),
  force_include: Type.Optional(TypeFlag),
  forward: Type.Optional(TypeFlag),
  allow_negative: Type.Optional(Type.Boolean({ description: 'extension: approvals may take the bank below zero' })),
  overdraft_hours: Type.Optional(
    NullableInput(
      Type.Number({
        minimum: 0,
        maximum: 100_000,
        description:
          'extension: how far below zero a request or approval may take the bank: 0 refuses any overdraft ' +
          '(allow_negative false), N allows down to -N hours, null allows any (allow_negative true)',
      }),
    ),
  ),
  default_day_hours: Type.Optional(
    Type.Number({
      exclusiveMinimum: 0,
      maximum: 24,
      description: 'extension: hours charged per day to a user with no scheduled work (default 24)',
    }),
  ),
  counts_as_worked: Type.Optional(
    Type.Boolean({ description: 'extension: its hours count as hours worked for overtime (default false)' }),
  ),
  sick_leave: Type.Optional(
    Type.Boolean({
      description:
        'extension: the type the web board\'s "Mark sick" records; true on one type takes it off the ' +
        "organization's other types (default false)",
    }),
  ),
  masked: Type.Optional(
    Type.Boolean({
      description:
        'extension: its time off shows as `public_name` ("Off") to those who may not see the type: members ' +
        'other than the person, calendar feeds, printed boards (default false)',
    }),
  ),
  public_name: Type.Optional(
    NullableInput(
      ShortText({ minLength: 1, description: 'extension: what a masked type shows as; null = "Off" (the default)' }),
    ),
  ),
  callback_exclusion_hours: Type.Optional(
    Type.Number({
      minimum: 0,
      maximum: 168,
      description:
        'extension: no callback is offered to a user within this many hours before or after ' +
        'their approved time off of this type (default 0)',
    }),
  ),
};

export const CreateTimeOffTypeBody = Type.Object({ label: ShortText({ minLength: 1 }), ...typeFields });
export type CreateTimeOffTypeBody = Static<typeof CreateTimeOffTypeBody>;

export const UpdateTimeOffTypeBody = Type.Object({ label: Type.Optional(ShortText({ minLength: 1 })), ...typeFields });
export type UpdateTimeOffTypeBody = Static<typeof UpdateTimeOffTypeBody>;

export const TimeOffTypeResponse = Type.Object({
  id: Type.String(),
  label: Type.String(),
  work_code: NullableString(),
  required_buffer: Type.String({ description: 'decimal hours with two places, e.g. "0.00"' }),
  instance_limit: Type.String(),
  primary_color: Type.String(),
  secondary_color: Type.String(),
  force_include: Type.Boolean(),
  forward: Type.Boolean(),
  href: Type.String(),
  sick_leave: Type.Boolean({ description: 'extension: the type "Mark sick" records (at most one is)' }),
  masked: Type.Boolean({ description: 'extension: its time off shows as `public_name` to those who may not see it' }),
  public_name: Type.String({ description: 'extension: what the type shows as when masked ("Off" unless set)' }),
});
export type TimeOffTypeResponse = Static<typeof TimeOffTypeResponse>;

export const TimeOffTypeDetailResponse = Type.Object({
  ...TimeOffTypeResponse.properties,
  allow_negative: Type.Boolean(),
  overdraft: Type.Union([Type.Literal('allow'), Type.Literal('limit'), Type.Literal('refuse')], {
    description: 'extension: the overdraft rule: allow any, allow down to -overdraft_hours, or refuse',
  }),
  overdraft_hours: Type.Union([Type.Number(), Type.Null()], {
    description: 'extension: hours the bank may go below zero; 0 when refused, null when any overdraft is allowed',
  }),
  default_day_hours: Type.Number(),
  counts_as_worked: Type.Boolean(),
  callback_exclusion_hours: Type.Number(),
});
