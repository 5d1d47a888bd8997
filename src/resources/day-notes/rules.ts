import type { AuthContext } from '../../core/auth/context.js';
import { logAction } from '../../core/audit.js';
import type { Db } from '../../core/db/transaction.js';
import { invalidParams } from '../../core/errors.js';
import { sanitize } from '../../core/html.js';
import { deleteDayNoteEntry, insertDayNoteEntry, lockDayNoteEntryOrThrow, updateDayNoteEntry } from './repository.js';
import type { DayNoteEntryResponse } from './schemas.js';
import type { DayNoteKind, DayNoteRow } from './table.js';

export const serializeDayNoteEntry = (row: DayNoteRow): DayNoteEntryResponse => ({
  id: row.id,
  date: row.date,
  kind: row.kind,
  html: row.html,
  position: row.position,
});

const named = (kind: DayNoteKind) => (kind === 'note' ? 'a note' : 'an activity');

/** The sanitized HTML of a body; 422 when nothing of it is left (it was only markup that is removed). */
function cleanHtml(html: string): string {
  const clean = sanitize(html);
  if (!clean.trim()) throw invalidParams('The html field is empty once sanitized: write the note as text or HTML.');
  return clean;
}

/** Adds one note (or activity) to the date: the date's other entries are not read or rewritten. */
export async function addDayNote(
  trx: Db,
  auth: AuthContext,
  date: string,
  body: { html: string; kind?: DayNoteKind },
): Promise<DayNoteRow> {
  const kind = body.kind ?? 'note';
  const row = await insertDayNoteEntry(trx, auth.orgId, { date, kind, html: cleanHtml(body.html) });
  await logAction(trx, auth, 'day_note.created', row.id, {
    description: `added ${named(kind)} to ${date}.`,
    after: serializeDayNoteEntry(row),
  });
  return row;
}

/** Replaces the HTML of one entry, by its id: an edit of another entry of the day at once is kept. */
export async function changeDayNote(trx: Db, auth: AuthContext, date: string, id: number, html: string) {
  const before = await lockDayNoteEntryOrThrow(trx, auth.orgId, date, id);
  const after = { ...before, html: cleanHtml(html) };
  await updateDayNoteEntry(trx, auth.orgId, id, after.html);
  await logAction(trx, auth, 'day_note.updated', id, {
    description: `changed ${named(before.kind)} of ${date}.`,
    before: serializeDayNoteEntry(before),
    after: serializeDayNoteEntry(after),
  });
  return after;
}

export async function removeDayNote(trx: Db, auth: AuthContext, date: string, id: number): Promise<void> {
  const before = await lockDayNoteEntryOrThrow(trx, auth.orgId, date, id);
  await deleteDayNoteEntry(trx, auth.orgId, id);
  await logAction(trx, auth, 'day_note.deleted', id, {
    description: `removed ${named(before.kind)} of ${date}.`,
    before: serializeDayNoteEntry(before),
  });
}
