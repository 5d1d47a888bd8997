import { Type, type Static } from '@sinclair/typebox';
import { Color, ShortText } from '../../core/schemas.js';

/** Labels are written with string ids and positions, as the samples show. */
export const LabelResponse = Type.Object({
  id: Type.String(),
  label: Type.String(),
  color: Type.String(),
  text_color: Type.String(),
  position: Type.String(),
});
export type LabelResponse = Static<typeof LabelResponse>;

export const LabelBody = Type.Object({
  label: ShortText({ minLength: 1 }),
  color: Color,
  text_color: Color,
  position: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
});
export type LabelBody = Static<typeof LabelBody>;

/** A shift's label as GET /schedule shows it (day.assignments[].shifts[].labels). */
export const ScheduleLabel = Type.Object({
  id: Type.Integer(),
  href: Type.String(),
  label: Type.String(),
  color: Type.String(),
  text_color: Type.String(),
});
