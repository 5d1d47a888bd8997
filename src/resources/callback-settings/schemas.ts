import { Type, type Static } from '@sinclair/typebox';
import { NullableInput, NullableString } from '../../core/schemas.js';

/** The channels a person can prefer, as the spec's callback user `contact_method` names them. */
export const CONTACT_METHODS = ['Mobile App', 'Text (SMS)', 'Email'] as const;
export type ContactMethod = (typeof CONTACT_METHODS)[number];

const ClockTime = Type.String({
  pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$',
  maxLength: 5,
  description: 'HH:MM in the organization zone',
});

export const CallbackSettingsBody = Type.Object({
  contact_method: Type.Optional(
    NullableInput(
      Type.Union(
        CONTACT_METHODS.map((m) => Type.Literal(m)),
        { description: 'preferred channel; null (default): Mobile App, then Text (SMS), then Email' },
      ),
    ),
  ),
  do_not_disturb_start: Type.Optional(NullableInput(ClockTime)),
  do_not_disturb_end: Type.Optional(NullableInput(ClockTime)),
});
export type CallbackSettingsBody = Static<typeof CallbackSettingsBody>;

export const CallbackSettingsResponse = Type.Object(
  {
    user_id: Type.Integer(),
    contact_method: NullableString(),
    do_not_disturb_start: NullableString(),
    do_not_disturb_end: NullableString(),
  },
  { 'x-crewplan-extension': true },
);
export type CallbackSettingsResponse = Static<typeof CallbackSettingsResponse>;
