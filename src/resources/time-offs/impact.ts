import type { FastifyRequest } from 'fastify';
import type { Db } from '../../core/db/transaction.js';
import { href } from '../../core/pagination.js';
import { addDays } from '../../core/time.js';
import { approvalImpact, chargedHours, closeMinute } from '../../scheduling/index.js';
import { bankOutlook } from '../accruals/ledger.js';
import { findTimeOffTypesByIds } from '../time-off-types/repository.js';
import { findUserOrInvalid, findUsersByIds } from '../users/repository.js';
import { fullName } from '../users/serialize.js';
import { findTimeOffOrThrow } from './repository.js';
import type { TimeOffImpact } from './schemas.js';
import { PENDING, type TimeOffRow } from './table.js';

/** The engine's reading of period limits: the impact looks at most this far from the entry's start. */
const MAX_DAYS = 366;

/** The requester's bank before and after the pending entry's approval (null when they keep none). */
async function bankAfterApproval(db: Db, request: FastifyRequest, entry: TimeOffRow): Promise<TimeOffImpact['bank']> {
  const { orgId, timezone } = request.auth;
  const [user, type] = await Promise.all([
    findUserOrInvalid(db, orgId, entry.user_id),
    findTimeOffTypesByIds(db, orgId, [entry.time_off_type_id]).then((types) => types.get(entry.time_off_type_id)!),
  ]);
  const hours = await chargedHours(db, orgId, entry, timezone);
  const outlook = await bankOutlook(db, request.auth, { user, type, hours });
  if (!outlook) return null;
  return {
    time_off_type: { id: type.id, name: type.label },
    hours,
    balance: outlook.balance,
    balance_after: outlook.after,
    floor: outlook.floor,
    allowed: outlook.allowed,
  };
}

/** GET /time_offs/{id}/impact: the staffing the entry's approval would leave, from the engine. */
export async function readTimeOffImpact(db: Db, request: FastifyRequest, id: number): Promise<TimeOffImpact> {
  const { orgId, timezone } = request.auth;
  const entry = await findTimeOffOrThrow(db, orgId, id);
  const last = closeMinute(entry.until ?? entry.end);
  const cap = `${addDays(entry.start.slice(0, 10), MAX_DAYS)} 00:00:00`;
  const span = { start: entry.start, end: last < cap ? last : cap };
  const impact = await approvalImpact(db, orgId, entry.id, span, timezone);
  const users = await findUsersByIds(
    db,
    orgId,
    impact.changes.flatMap((c) => c.userIds),
  );
  const bank = entry.status === PENDING ? await bankAfterApproval(db, request, entry) : null;
  const ref = (path: string, refId: number, name: string) => ({ id: refId, href: href(request, path), name });
  return {
    time_off_id: entry.id,
    bank,
    status: entry.status,
    start: span.start,
    end: span.end,
    seats_opened: impact.seats_opened,
    new_vacancies: impact.new_vacancies,
    assignments: impact.changes.map((c) => ({
      assignment: ref(`/assignments/${c.assignment.id}`, c.assignment.id, c.assignment.name),
      date: c.date,
      start: c.start,
      end: c.end,
      before: c.before,
      after: c.after,
      people: c.userIds.map((userId) => {
        const user = users.get(userId);
        return ref(`/users/${userId}`, userId, user ? fullName(user) : '');
      }),
    })),
  };
}
