import { orgColumns } from '../../core/db/org-rows.js';
import type { DemoSeedContext } from '../../core/seed.js';
import { writeLog } from '../../core/audit.js';
import { nowUtc, Temporal, todayIn } from '../../core/time.js';
import { vacanciesOf } from '../../scheduling/index.js';
import { insertShift } from '../shifts/repository.js';
import { insertVisualCycle } from '../visual-cycles/repository.js';
import { DEMO_ROSTER, type DemoPlatoon, type DemoUnit } from '../users/seed.js';
import { dutyOn, PRESETS } from '../../scheduling/rotation-pattern.js';
import { defaultWorkTypeId } from '../work-types/repository.js';
import { insertRecurringShift } from './repository.js';
import { createRotation } from './rules.js';

export const seedOrder = 30;

const PRESET = PRESETS['24/48-kelly']!;
/** The platoons' colours: the day header of the board takes the colour of the platoon on duty. */
const PLATOON_COLORS: Record<DemoPlatoon, string> = { A: '#B91C1C', B: '#1D4ED8', C: '#047857' };
const UNITS: DemoUnit[] = ['Engine 1', 'Engine 2', 'Ladder 1', 'Medic 1', 'Battalion Chief'];

/** The crew of the platoon on duty on the date (Kelly days aside). */
function platoonOn(anchorDate: string, date: string): DemoPlatoon {
  const rotation = { anchorDate, pattern: PRESET.pattern, kellyEvery: null };
  const crews = Object.entries(PRESET.crews) as Array<[DemoPlatoon, number]>;
  return crews.find(([, offset]) => dutyOn(rotation, { crewOffset: offset, kellyOffset: 0 }, date).slot > 0)![0];
}

/**
 * Kelly offsets: within a company (platoon and unit) each member a different one, so a Kelly day
 * takes at most one of them; the Battalion Chiefs' chosen so that each has a Kelly day in the days
 * right after today (the demo's real vacancies).
 */
function kellyOffsets(anchorDate: string, today: Temporal.PlainDate): number[] {
  const seen = new Map<string, number>();
  const kellyEvery = PRESET.kellyEvery!;
  return DEMO_ROSTER.map((m) => {
    const crewOffset = PRESET.crews[m.platoon]!;
    if (m.unit === 'Battalion Chief') {
      const rotation = { anchorDate, pattern: PRESET.pattern, kellyEvery };
      const day = [2, 3, 4]
        .map((d) => today.add({ days: d }).toString())
        .find((d) => platoonOn(anchorDate, d) === m.platoon)!;
      return [...Array(kellyEvery).keys()].find((k) => dutyOn(rotation, { crewOffset, kellyOffset: k }, day).kelly)!;
    }
    const company = `${m.platoon}|${m.unit}`;
    const index = seen.get(company) ?? 0;
    seen.set(company, index + 1);
    return (UNITS.indexOf(m.unit) * 2 + index) % kellyEvery;
  });
}

/** One visual cycle per day naming the platoon on duty, from the first of last month to three months ahead. */
async function seedPlatoonCycles(ctx: DemoSeedContext, anchorDate: string, from: Temporal.PlainDate): Promise<number> {
  const until = from.add({ months: 5 });
  let count = 0;
  for (let day = from; Temporal.PlainDate.compare(day, until) < 0; day = day.add({ days: 1 })) {
    const platoon = platoonOn(anchorDate, day.toString());
    await insertVisualCycle(ctx.db, {
      organization_id: ctx.auth.orgId,
      name: `${platoon} Shift`,
      start: day.toString(),
      end: day.toString(),
      color: PLATOON_COLORS[platoon],
      text_color: '#FFFFFF',
      created_by: ctx.adminId,
      created_at: nowUtc(),
      deleted_by: null,
      deleted_at: null,
    });
    count += 1;
  }
  await writeLog(ctx.db, ctx.auth, {
    action: 'visual_cycle.created',
    description:
      `created ${count} visual cycles naming the platoon on duty each day ` +
      `from ${from} to ${until.subtract({ days: 1 })}.`,
    actorUserId: ctx.adminId,
  });
  return count;
}

/**
 * The past Battalion Chief Kelly days covered: an officer of the next platoon works the seat as
 * overtime (a one-off shift), as the engine's vacancies name them.
 */
async function coverPastVacancies(
  ctx: DemoSeedContext,
  units: Record<DemoUnit, number>,
  from: Temporal.PlainDate,
  today: Temporal.PlainDate,
): Promise<number> {
  const overtime = await orgColumns(ctx.db, 'work_type', ctx.auth.orgId, ['id'])
    .where('label', '=', 'Overtime')
    .executeTakeFirstOrThrow();
  const span = { start: `${from} 00:00:00`, end: `${today.subtract({ days: 1 })} 00:00:00` };
  const vacancies = await vacanciesOf(ctx.db, ctx.auth.orgId, span, ctx.auth.timezone, [units['Battalion Chief']]);
  let shifts = 0;
  for (const vacancy of vacancies) {
    const platoon = platoonOn(from.toString(), vacancy.date);
    const relief = DEMO_ROSTER.findIndex(
      (m) => m.role === 'Lieutenant' && m.unit === 'Engine 1' && m.platoon === NEXT_PLATOON[platoon],
    );
    const id = await insertShift(ctx.db, ctx.auth.orgId, {
      assignment_id: units['Battalion Chief'],
      user_id: ctx.userIds[relief]!,
      date: vacancy.date,
      start: vacancy.start,
      end: vacancy.end,
      work_type_id: overtime.id,
      work_subtype_id: null,
      notes: 'Acting Battalion Chief (Kelly day cover)',
      from_callback: null,
      traded_with: null,
      scheduled_by: ctx.adminId,
    });
    await writeLog(ctx.db, ctx.auth, {
      action: 'shift.created',
      description: `scheduled a one-off shift on ${vacancy.date}.`,
      actorUserId: ctx.adminId,
      entityType: 'shift',
      entityId: id,
    });
    shifts += 1;
  }
  return shifts;
}

const NEXT_PLATOON: Record<DemoPlatoon, DemoPlatoon> = { A: 'B', B: 'C', C: 'A' };

/**
 * The department on a 24/48 with Kelly days (every 7th shift): each member of DEMO_ROSTER on their
 * unit in their platoon's crew from the first of last month; the platoon of each day as a visual
 * cycle; past Battalion Chief Kelly days covered by overtime.
 */
export async function seedDemo(ctx: DemoSeedContext): Promise<Record<string, number> | undefined> {
  const assignmentIds = (ctx.shared.assignmentIds as number[] | undefined) ?? [];
  if (assignmentIds.length === 0) return;
  const units = Object.fromEntries(UNITS.map((unit, index) => [unit, assignmentIds[index]!])) as Record<
    DemoUnit,
    number
  >;
  ctx.shared.units = units;
  const today = todayIn(ctx.auth.timezone);
  const from = today.with({ day: 1 }).subtract({ months: 1 });
  const anchorDate = from.toString();
  const rotationId = await createRotation(ctx.db, ctx.auth, {
    name: '24/48 A/B/C with Kelly days',
    anchor_date: anchorDate,
    preset: '24/48-kelly',
    kelly_code: 'KD',
    kelly_name: 'Kelly day',
  });
  const offsets = kellyOffsets(anchorDate, today);
  const workTypeId = await defaultWorkTypeId(ctx.db, ctx.auth.orgId, 'Regular Time');
  // inserted directly: the roster has no clashes, and POST /recurring_shifts' 366-day check per member is slow
  for (const [index, userId] of ctx.userIds.entries()) {
    const m = DEMO_ROSTER[index];
    if (!m) continue;
    const now = nowUtc();
    const id = await insertRecurringShift(ctx.db, {
      organization_id: ctx.auth.orgId,
      rotation_id: rotationId,
      user_id: userId,
      assignment_ids: JSON.stringify([units[m.unit]]),
      crew_offset: PRESET.crews[m.platoon] ?? 0,
      kelly_offset: offsets[index] ?? 0,
      start_date: anchorDate,
      end_date: null,
      work_type_id: workTypeId,
      work_subtype_id: null,
      break_start: '12:00:00',
      break_length: 0.5,
      notes: null,
      scheduled_by: ctx.adminId,
      previous_id: null,
      created_at: now,
      updated_at: now,
    });
    await writeLog(ctx.db, ctx.auth, {
      action: 'recurring_shift.created',
      description: `placed ${m.first} ${m.last} on ${m.unit}, ${m.platoon} platoon, from ${anchorDate}.`,
      actorUserId: ctx.adminId,
      entityType: 'recurring_shift',
      entityId: id,
    });
  }
  const cycles = await seedPlatoonCycles(ctx, anchorDate, from);
  const shifts = await coverPastVacancies(ctx, units, from, today);
  return { rotations: 1, recurring_shifts: ctx.userIds.length, visual_cycles: cycles, shifts };
}
