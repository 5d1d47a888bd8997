import { lockRowOrThrow } from '../../core/db/locks.js';
import { deleteOrgRows, orgColumns, orgRows, updateOrgRow } from '../../core/db/org-rows.js';
import type { Db } from '../../core/db/transaction.js';
import { notFound } from '../../core/errors.js';
import type { DayNoteKind, DayNoteRow } from './table.js';

export interface DayNotes {
  notes: string[];
  activities: string[];
}

/** Notes and activities of every date in [startDate, endDate] that has any, keyed by date. */
export async function notesForRange(
  db: Db,
  orgId: number,
  startDate: string,
  endDate: string,
): Promise<Map<string, DayNotes>> {
  return notesByDate(await notesQuery(db, orgId, startDate, endDate).execute());
}

/** The statement of {@link notesForRange}, for GET /schedule to read with others in one. */
export function notesQuery(db: Db, orgId: number, startDate: string, endDate: string) {
  return orgColumns(db, 'day_note', orgId, ['date', 'kind', 'html'])
    .where('date', '>=', startDate)
    .where('date', '<=', endDate)
    .orderBy('date')
    .orderBy('position')
    .orderBy('id');
}

/** The rows {@link notesQuery} read, by date. */
export function notesByDate(rows: Array<{ date: string; kind: string; html: string }>): Map<string, DayNotes> {
  const byDate = new Map<string, DayNotes>();
  for (const row of rows) {
    const day = byDate.get(row.date) ?? { notes: [], activities: [] };
    (row.kind === 'activity' ? day.activities : day.notes).push(row.html);
    byDate.set(row.date, day);
  }
  return byDate;
}

/** Replaces the entries of one kind on a date with `htmls`, in order. */
export async function replaceDayNotes(
  trx: Db,
  orgId: number,
  date: string,
  kind: DayNoteKind,
  htmls: string[],
): Promise<void> {
  await deleteOrgRows(trx, 'day_note', orgId).where('date', '=', date).where('kind', '=', kind).execute();
  if (htmls.length === 0) return;
  await trx
    .insertInto('day_note')
    .values(htmls.map((html, position) => ({ organization_id: orgId, date, kind, html, position })))
    .execute();
}

/** The notes and activities of a date with their ids, notes first, each kind in its order. */
export function listDayNoteEntries(db: Db, orgId: number, date: string): Promise<DayNoteRow[]> {
  return orgRows(db, 'day_note', orgId)
    .where('date', '=', date)
    .orderBy('kind', 'desc')
    .orderBy('position')
    .orderBy('id')
    .execute();
}

/** Adds one entry after the last of its kind on the date. */
export async function insertDayNoteEntry(
  trx: Db,
  orgId: number,
  entry: { date: string; kind: DayNoteKind; html: string },
): Promise<DayNoteRow> {
  const { last } = await trx
    .selectFrom('day_note')
    .select((eb) => eb.fn.max('position').as('last'))
    .where('organization_id', '=', orgId)
    .where('date', '=', entry.date)
    .where('kind', '=', entry.kind)
    .executeTakeFirstOrThrow();
  const position = last === null ? 0 : Number(last) + 1;
  return trx
    .insertInto('day_note')
    .values({ organization_id: orgId, ...entry, position })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The entry `id` of the date, locked until the transaction ends; 404 when the date has no such entry. */
export async function lockDayNoteEntryOrThrow(trx: Db, orgId: number, date: string, id: number): Promise<DayNoteRow> {
  const row = await lockRowOrThrow(trx, { table: 'day_note', orgId, id, model: 'DayNote' });
  if (row.date !== date) throw notFound('DayNote');
  return row;
}

export async function updateDayNoteEntry(trx: Db, orgId: number, id: number, html: string): Promise<void> {
  await updateOrgRow(trx, 'day_note', orgId, id, { html });
}

export async function deleteDayNoteEntry(trx: Db, orgId: number, id: number): Promise<void> {
  await trx.deleteFrom('day_note').where('organization_id', '=', orgId).where('id', '=', id).execute();
}
