import { call, client } from '../../api';
import type { BoardData } from '../board/model';

/** The work type a new shift on the assignment gets: the one its shifts in view use, else the first. */
export async function workTypeFor(data: BoardData, assignmentId: number): Promise<number> {
  for (const day of data.schedule.days) {
    const shift = day.assignments.find((a) => a.id === assignmentId)?.shifts[0];
    if (shift) return shift.work_type.id;
  }
  const types = await call(client.GET('/v1/work_types'));
  if (!types.length) throw new Error('There is no work type to schedule the shift with.');
  return types[0].id;
}

/** A note typed by a person is text: the API stores HTML, so `<`, `>` and `&` are escaped. */
export const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** `YYYY-MM-DD HH:MM:SS` ⇄ the value of a `datetime-local` field. */
export const toField = (local: string) => local.slice(0, 16).replace(' ', 'T');
export const fromField = (value: string) => `${value.replace('T', ' ')}:00`.slice(0, 19);
