import { Type, type Static } from '@sinclair/typebox';
import { DateStr, LongText } from '../../core/schemas.js';

export const DayNotesResponse = Type.Object({
  date: Type.String(),
  notes: Type.Array(Type.String()),
  activities: Type.Array(Type.String()),
});
export type DayNotesResponse = Static<typeof DayNotesResponse>;

export const DateParams = Type.Object({ date: DateStr });
export type DateParams = Static<typeof DateParams>;

const HtmlList = Type.Array(LongText(), { maxItems: 100 });
export const DayNotesBody = Type.Object({ notes: Type.Optional(HtmlList), activities: Type.Optional(HtmlList) });
export type DayNotesBody = Static<typeof DayNotesBody>;

export const DayNotesQuery = Type.Object({ start: Type.Optional(DateStr), end: Type.Optional(DateStr) });
export type DayNotesQuery = Static<typeof DayNotesQuery>;
