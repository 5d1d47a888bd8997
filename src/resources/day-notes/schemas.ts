import { Type, type Static } from '@sinclair/typebox';
import { DateStr, LongText, PathId } from '../../core/schemas.js';

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

/** One note or activity of a date, by its own id: edited or removed without touching the others. */
export const DayNoteEntryResponse = Type.Object({
  id: Type.Integer(),
  date: Type.String(),
  kind: Type.Union([Type.Literal('note'), Type.Literal('activity')]),
  html: Type.String({ description: 'sanitized HTML' }),
  position: Type.Integer({ description: 'its place in the date’s list of its kind' }),
});
export type DayNoteEntryResponse = Static<typeof DayNoteEntryResponse>;

export const DayNoteEntryParams = Type.Object({ date: DateStr, id: PathId });
export type DayNoteEntryParams = Static<typeof DayNoteEntryParams>;

const EntryHtml = Type.String({ minLength: 1, maxLength: 65_535, description: 'HTML, sanitized on write' });
export const NewDayNoteEntryBody = Type.Object({
  html: EntryHtml,
  kind: Type.Optional(Type.Union([Type.Literal('note'), Type.Literal('activity')], { default: 'note' })),
});
export type NewDayNoteEntryBody = Static<typeof NewDayNoteEntryBody>;

export const ChangeDayNoteEntryBody = Type.Object({ html: EntryHtml });
export type ChangeDayNoteEntryBody = Static<typeof ChangeDayNoteEntryBody>;
