import { Type, type Static } from '@sinclair/typebox';
import { Color, DateStr, ShortText, SuccessWith } from '../../core/schemas.js';

export const DayLabelQuery = Type.Object({
  start: Type.Optional(DateStr),
  end: Type.Optional(DateStr),
});
export type DayLabelQuery = Static<typeof DayLabelQuery>;

export const DayLabelValue = Type.Object({ color: Type.String(), label: Type.String() });

export const DayLabelMap = Type.Object({
  days: Type.Record(Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' }), DayLabelValue),
});

export const DateParams = Type.Object({ date: DateStr });
export type DateParams = Static<typeof DateParams>;

export const DayLabelBody = Type.Object({ label: ShortText({ minLength: 1, maxLength: 100 }), color: Color });
export type DayLabelBody = Static<typeof DayLabelBody>;

export const DayLabelWriteResponse = SuccessWith({
  date: Type.String(),
});
