import type { DemoSeedContext } from '../../cli/seed.js';
import { writeLog } from '../../core/audit.js';
import { todayIn } from '../../core/time.js';
import { insertShift } from '../shifts/repository.js';
import { createRecurringShift, createRotation } from './rules.js';
import { defaultWorkTypeId } from './repository.js';

export const seedOrder = 30;

const CREWS = ['A', 'B', 'C'] as const;

/**
 * The demo crew on a 24/48 rotation: every non-admin user in crew A, B or C of one of the shared
 * assignments, from the first of the month; plus a few one-off overtime shifts on their days off.
 */
export async function seedDemo(ctx: DemoSeedContext): Promise<Record<string, number> | void> {
  const assignmentIds = (ctx.shared.assignmentIds as number[] | undefined) ?? [];
  if (assignmentIds.length === 0) return;
  const monthStart = todayIn(ctx.auth.timezone).with({ day: 1 });
  const rotationId = await createRotation(ctx.db, ctx.auth, { name: '24/48 A/B/C', anchor_date: monthStart.toString(), preset: '24/48' });
  const crew = ctx.userIds.slice(1);
  for (const [index, userId] of crew.entries()) {
    await createRecurringShift(ctx.db, ctx.auth, {
      user_id: userId,
      rotation_id: rotationId,
      assignment_id: assignmentIds[Math.floor(index / CREWS.length) % assignmentIds.length]!,
      crew: CREWS[index % CREWS.length],
      start_date: monthStart.toString(),
      break_start: '12:00',
      break_length: 0.5,
      admin_id: ctx.adminId,
    });
  }
  const overtime = await ctx.db
    .selectFrom('work_type')
    .select('id')
    .where('organization_id', '=', ctx.auth.orgId)
    .where('label', '=', 'Overtime')
    .executeTakeFirst();
  const workTypeId = overtime?.id ?? (await defaultWorkTypeId(ctx.db, ctx.auth.orgId));
  let shifts = 0;
  for (const [index, userId] of crew.slice(0, 4).entries()) {
    // crew offset c works days c, c+3, …; day c+1 is always off
    const day = monthStart.add({ days: (index % CREWS.length) + 1 + 3 * index });
    if (day.month !== monthStart.month) continue;
    const date = day.toString();
    const id = await insertShift(ctx.db, ctx.auth.orgId, {
      assignment_id: assignmentIds[0]!,
      user_id: userId,
      date,
      start: `${date} 08:00:00`,
      end: `${date} 18:00:00`,
      work_type_id: workTypeId,
      work_subtype_id: null,
      notes: 'Covering a vacancy',
      from_callback: null,
      traded_with: null,
      scheduled_by: ctx.adminId,
    });
    await writeLog(ctx.db, ctx.auth, { action: 'shift.created', description: `scheduled a one-off shift on ${date}.`, actorUserId: ctx.adminId, entityType: 'shift', entityId: id });
    shifts += 1;
  }
  return { rotations: 1, recurring_shifts: crew.length, shifts };
}
