import type { Db } from '../../core/db/transaction.js';
import { expandWork } from '../rotations/expand.js';

/** A scheduled piece of work of a user, as the rotation engine reports it. */
export interface WorkPiece {
  user_id: number;
  start: string;
  end: string;
  length: number;
  break_start: string | null;
  break_end: string | null;
  break_length: number;
}

/** The users' scheduled work (rotation occurrences and one-off shifts) overlapping [start, end), by user. */
export async function workByUser(db: Db, orgId: number, range: { start: string; end: string; userIds: number[] }): Promise<Map<number, WorkPiece[]>> {
  const byUser = new Map<number, WorkPiece[]>();
  if (range.userIds.length === 0) return byUser;
  for (const item of await expandWork(db, orgId, range)) {
    const pieces = byUser.get(item.user_id) ?? [];
    pieces.push(item);
    byUser.set(item.user_id, pieces);
  }
  return byUser;
}
