import type { AuthContext } from '../../core/auth/context.js';
import { writeLog } from '../../core/audit.js';
import type { Db } from '../../core/db/transaction.js';
import { invalidParams } from '../../core/errors.js';
import { hoursBetween, nowUtc, Temporal } from '../../core/time.js';
import { limitPeriods, limitReason } from '../../scheduling/index.js';
import { findAssignmentsByIds } from '../assignments/repository.js';
import { fullName } from '../users/serialize.js';
import type { UserRow } from '../users/table.js';
import { autoAcceptedSpans, findAutoAccept, replaceAutoAccept } from './repository.js';
import type { AutoAcceptBody, AutoAcceptResponse } from './schemas.js';
import type { CallbackAutoAcceptRow } from './table.js';

const ids = (json: string | null) => (json === null ? null : (JSON.parse(json) as number[]));

export function serializeAutoAccept(userId: number, row: CallbackAutoAcceptRow | undefined): AutoAcceptResponse {
  return {
    user_id: userId,
    enabled: row?.enabled === 1,
    max_hours: row?.max_hours ?? 0,
    period: row?.period ?? 'week',
    assignment_ids: ids(row?.assignment_ids ?? null),
    weekdays: ids(row?.weekdays ?? null),
  };
}

export async function replaceAutoAcceptSettings(
  trx: Db,
  auth: AuthContext,
  user: UserRow,
  body: AutoAcceptBody,
): Promise<void> {
  const assignmentIds = body.assignment_ids ?? null;
  if (assignmentIds?.length) {
    const known = await findAssignmentsByIds(trx, auth.orgId, assignmentIds);
    const missing = assignmentIds.filter((id) => !known.has(id));
    if (missing.length) throw invalidParams(`The assignment ids ${missing.join(', ')} do not exist.`);
  }
  await replaceAutoAccept(trx, {
    organization_id: auth.orgId,
    user_id: user.id,
    enabled: body.enabled ? 1 : 0,
    max_hours: body.max_hours,
    period: body.period,
    assignment_ids: assignmentIds === null ? null : JSON.stringify(assignmentIds),
    weekdays: body.weekdays ? JSON.stringify([...body.weekdays].sort()) : null,
    updated_at: nowUtc(),
  });
  await writeLog(trx, auth, {
    action: 'callback_auto_accept.updated',
    description:
      `${body.enabled ? 'turned on' : 'turned off'} auto-accepted callbacks for ${fullName(user)} ` +
      `(up to ${body.max_hours} hours per ${body.period}).`,
    actorUserId: user.id,
    entityType: 'user',
    entityId: user.id,
    after: body,
  });
}

/**
 * Why the runner may not accept this callback for the user at once (they opted out, it is not on
 * their assignments or days, or it would take them past their hours for the period), or null.
 * Run inside the acceptance's transaction, with the user's schedule locked.
 */
export async function autoAcceptRefusal(
  db: Db,
  orgId: number,
  userId: number,
  callback: { assignment_id: number | null; start: string; end: string },
  timeZone: string,
): Promise<string | null> {
  const settings = await findAutoAccept(db, orgId, userId);
  if (!settings || settings.enabled !== 1) return 'auto-accept is off';
  const assignments = ids(settings.assignment_ids);
  if (assignments && (callback.assignment_id === null || !assignments.includes(callback.assignment_id)))
    return 'not on an assignment the user auto-accepts';
  const weekdays = ids(settings.weekdays);
  if (weekdays && !weekdays.includes(Temporal.PlainDate.from(callback.start.slice(0, 10)).dayOfWeek))
    return 'not on a day the user auto-accepts';
  const period = limitPeriods(callback.start)[settings.period === 'month' ? 'month' : 'week'];
  const spans = await autoAcceptedSpans(db, orgId, userId, period.start, period.end);
  const used = spans.reduce((sum, s) => sum + hoursBetween(s.start_time ?? s.start, s.end_time ?? s.end, timeZone), 0);
  const total = used + hoursBetween(callback.start, callback.end, timeZone);
  if (total <= settings.max_hours) return null;
  const limit = settings.period === 'month' ? 'monthly' : 'weekly';
  return limitReason("the user's auto-accept", limit, Math.round(total * 100) / 100, settings.max_hours).text;
}
