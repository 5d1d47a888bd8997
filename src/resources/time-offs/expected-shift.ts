import { Type, type Static } from '@sinclair/typebox';
import type { AuthContext } from '../../core/auth/context.js';
import type { Db } from '../../core/db/transaction.js';
import { conflict } from '../../core/errors.js';
import { Id, LocalDateTime } from '../../core/schemas.js';
import { nowLocal, normalizeLocalDateTime } from '../../core/time.js';
import { scheduleFacts } from '../../scheduling/index.js';

/**
 * POST /time_offs `for_shift` (extension): the shift the time off is meant for, as the client last
 * read it from GET /schedule (its `id`, `recurring`, `start` and `end`). The request is refused with
 * 409, writing nothing, when that shift has moved, is no longer the user's to work, or has ended:
 * a board that was not read again since does not record leave on a day the person no longer works.
 * Without the field, POST /time_offs behaves as the spec says. POST /trades takes it too (the board's
 * move or swap: the requesting user's shift).
 */
export const ForShift = Type.Object(
  {
    id: Id,
    recurring: Type.Boolean(),
    start: LocalDateTime,
    end: LocalDateTime,
  },
  {
    description:
      'extension: the shift this request is for, as last read from GET /schedule; 409 when it has moved, ' +
      'is no longer worked by the user, or has ended',
  },
);
export type ForShift = Static<typeof ForShift>;

export async function assertShiftCurrent(db: Db, auth: AuthContext, userId: number, shift: ForShift): Promise<void> {
  const start = normalizeLocalDateTime(shift.start);
  const end = normalizeLocalDateTime(shift.end);
  const named = `The shift of ${start} to ${end}`;
  if (end <= nowLocal(auth.timezone)) throw conflict(`${named} has ended; nothing was recorded.`);
  const facts = await scheduleFacts(db, auth.orgId, { start, end, userIds: [userId], timezone: auth.timezone });
  const still = facts.worked.some(
    (piece) =>
      piece.user_id === userId &&
      piece.id === shift.id &&
      piece.recurring === shift.recurring &&
      piece.scheduled_start === start &&
      piece.scheduled_end === end,
  );
  if (!still)
    throw conflict(
      `${named} has moved or is no longer this person's to work; nothing was recorded. Read the schedule again.`,
    );
}
