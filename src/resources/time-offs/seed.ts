import type { DemoSeedContext } from '../../core/seed.js';
import { formatLocalDateTime, nowUtc, Temporal, todayIn } from '../../core/time.js';
import { occurrenceStaffing } from '../../scheduling/index.js';
import { DEMO_ROSTER, type DemoUnit } from '../users/seed.js';
import { writeLog } from '../../core/audit.js';
import { insertTransactions } from '../accruals/repository.js';
import { saveProfile } from '../accruals/rules.js';
import { createTimeOffType } from '../time-off-types/rules.js';
import { updateUser } from '../users/repository.js';
import { createTimeOff } from './rules.js';
import { APPROVED, PENDING } from './table.js';

export const seedOrder = 40;

const TYPES = [
  {
    label: 'Vacation',
    work_code: 'VAC',
    primary_color: '#3f5647',
    secondary_color: '#FFFFFF',
    forward: true,
    required_buffer: 24,
  },
  // callable (`force_include`): holders of a Kelly or comp day may still be asked to work; the sick never.
  // `sick_leave`: the type the board's "Mark sick" records; `masked`: members see others' sick leave as "Off".
  {
    label: 'Sick',
    work_code: 'SL',
    primary_color: '#2474a9',
    secondary_color: '#FFFFFF',
    sick_leave: true,
    masked: true,
  },
  { label: 'Kelly Day', work_code: 'KD', primary_color: '#7c3aed', secondary_color: '#FFFFFF', force_include: true },
  {
    label: 'Comp Time',
    work_code: 'CT',
    primary_color: '#b45309',
    secondary_color: '#FFFFFF',
    // may go down to -24 h: the queue shows a comp day taken before it is earned (docs/time-off.md)
    overdraft_hours: 24,
    force_include: true,
  },
];

const at = (date: Temporal.PlainDate, hour = 7) => formatLocalDateTime(date.toPlainDateTime({ hour }));

/** Demo time off: the four usual types, an accrual profile with opening balances, approved and pending time off. */
export async function seedDemo(ctx: DemoSeedContext): Promise<Record<string, number>> {
  const { db, auth, adminId, userIds } = ctx;
  const typeIds: number[] = [];
  for (const type of TYPES) typeIds.push(await createTimeOffType(db, auth, type));
  const [vacationId, sickId, , compId] = typeIds;

  const profileId = await saveProfile(db, auth, null, {
    name: 'Firefighter',
    rules: [
      { time_off_type_id: vacationId, method: 'year', hours: 144, max_hours: 300 },
      { time_off_type_id: sickId, method: 'pay_period', hours: 6, max_hours: 150 },
      { time_off_type_id: compId, method: 'none' },
    ],
  });
  const opening = [];
  for (const [index, userId] of userIds.entries()) {
    await updateUser(db, auth.orgId, userId, { accrual_profile_id: profileId });
    for (const [typeId, hours] of [
      [vacationId, 48 + 24 * (index % 4)],
      [sickId, 24 + 12 * (index % 3)],
    ] as const)
      opening.push({
        organization_id: auth.orgId,
        user_id: userId,
        time_off_type_id: typeId,
        hours,
        kind: 'manual' as const,
        admin_id: adminId,
        notes: 'Opening balance',
        time_off_id: null,
        period_key: null,
        created_at: nowUtc(),
      });
  }
  // one statement for the opening balances (an adjustment each, as POST /accruals would write them, is slow)
  await insertTransactions(db, opening);
  await writeLog(db, auth, {
    action: 'accrual.adjusted',
    description: `added opening Vacation and Sick balances for ${userIds.length} users.`,
    actorUserId: adminId,
  });
  const banks = opening.length;
  const entries = await demoEntries(ctx, { vacationId, sickId, compId });
  for (const entry of entries) await createTimeOff(db, auth, entry);
  return { time_off_types: typeIds.length, time_offs: entries.length, accrual_banks: banks };
}

type Entry = Parameters<typeof createTimeOff>[2];

/**
 * Time off placed on the crew's real shifts, read from the engine's staffing: a past vacation and
 * sick day; an approved vacation next week on a company already at minimum (a Kelly day of another
 * member), which leaves a real vacancy; and pending requests whose approval would, or would not,
 * open a seat (the time off queue shows which).
 */
async function demoEntries(
  ctx: DemoSeedContext,
  types: { vacationId: number; sickId: number; compId: number },
): Promise<Entry[]> {
  const { db, auth, adminId, userIds } = ctx;
  const units = ctx.shared.units as Record<DemoUnit, number> | undefined;
  if (!units) return [];
  const today = todayIn(auth.timezone);
  const occurrences = await occurrenceStaffing(
    db,
    auth.orgId,
    { start: at(today.subtract({ days: 20 }), 0), end: at(today.add({ days: 20 }), 0) },
    auth.timezone,
    [units['Engine 1'], units['Engine 2'], units['Ladder 1'], units['Medic 1']],
  );
  const roster = new Map(userIds.map((id, index) => [id, DEMO_ROSTER[index]]));
  const taken = new Set<number>();
  const days = (o: { date: string }) => Temporal.PlainDate.from(o.date).since(today).days;
  /** A member (of the role when given) on the first occurrence in the days that `fits`, once per user. */
  const pick = (from: number, to: number, fits: (o: (typeof occurrences)[number]) => boolean, roles?: string[]) => {
    for (const o of occurrences.filter((o) => days(o) >= from && days(o) < to && fits(o))) {
      const userId = o.userIds.find((id) => !taken.has(id) && (!roles || roles.includes(roster.get(id)?.role ?? '')));
      if (userId === undefined) continue;
      taken.add(userId);
      return { userId, start: o.start, end: o.end };
    }
    return undefined;
  };
  const atMinimum = (o: (typeof occurrences)[number]) =>
    o.staffing.open === 0 && o.staffing.scheduled === o.staffing.needed;
  const aboveMinimum = (o: (typeof occurrences)[number]) => o.staffing.scheduled > o.staffing.needed;
  const base = { adminIds: [adminId], userNote: null, rrule: null, requestedByUser: false, status: APPROVED };
  const request = { ...base, status: PENDING, requestedByUser: true, adminIds: [] };
  const plus = (local: string, n: number) =>
    formatLocalDateTime(Temporal.PlainDateTime.from(local.replace(' ', 'T')).add({ days: n }));
  const entries: Entry[] = [];
  const add = (found: ReturnType<typeof pick>, entry: Omit<Entry, 'userId' | 'start' | 'end'>, shifts = 1) => {
    if (found)
      entries.push({ ...entry, userId: found.userId, start: found.start, end: plus(found.end, 3 * (shifts - 1)) });
  };
  add(pick(-14, -8, aboveMinimum, ['Firefighter']), { ...base, typeId: types.vacationId });
  add(pick(-7, -1, aboveMinimum, ['Engineer']), { ...base, typeId: types.sickId });
  add(pick(5, 10, atMinimum, ['Firefighter', 'Engineer']), { ...base, typeId: types.vacationId, userNote: 'Wedding' });
  add(pick(8, 16, atMinimum, ['Firefighter']), { ...request, typeId: types.vacationId, userNote: 'Family trip' }, 2);
  add(pick(3, 10, aboveMinimum, ['Engineer', 'Firefighter/EMT']), {
    ...request,
    typeId: types.compId,
    userNote: "Kid's graduation",
  });
  add(pick(4, 14, atMinimum, ['Firefighter/Paramedic']), { ...request, typeId: types.vacationId, userNote: null });
  return entries;
}
