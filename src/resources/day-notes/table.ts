import type { Generated, Selectable } from 'kysely';

export type DayNoteKind = 'note' | 'activity';

/** One sanitized HTML note or activity of a date, in `position` order. */
export interface DayNoteTable {
  id: Generated<number>;
  organization_id: number;
  date: string;
  kind: DayNoteKind;
  html: string;
  position: number;
}

export type DayNoteRow = Selectable<DayNoteTable>;

declare module '../../core/db/types.js' {
  interface Database {
    day_note: DayNoteTable;
  }
}
