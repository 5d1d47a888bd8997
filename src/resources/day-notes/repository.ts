import type { Db } from '../../core/db/transaction.js';
import type { DayNoteKind } from './table.js';

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
  return db
    .selectFrom('day_note')
    .select(['date', 'kind', 'html'])
    .where('organization_id', '=', orgId)
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
  await trx
    .deleteFrom('day_note')
    .where('organization_id', '=', orgId)
    .where('date', '=', date)
    .where('kind', '=', kind)
    .execute();
  if (htmls.length === 0) return;
  await trx
    .insertInto('day_note')
    .values(htmls.map((html, position) => ({ organization_id: orgId, date, kind, html, position })))
    .execute();
}
