import { orgColumns } from '../../core/db/org-rows.js';
import type { DemoSeedContext } from '../../core/seed.js';
import { writeLog } from '../../core/audit.js';
import { nowUtc, todayIn } from '../../core/time.js';
import { createWorkSubtype, createWorkType } from '../work-types/rules.js';
import { insertMiscHour } from '../misc-hours/repository.js';
import { replaceDayNotes } from '../day-notes/repository.js';
import { insertFinalization, insertGroupLabel, replaceGroupLabels } from './repository.js';
import { createAssignment, logFinalization } from './rules.js';
import type { CreateAssignmentBody } from './schemas.js';

export const seedOrder = 20;

const STATION_1 = {
  address: '120 Main Street',
  city: 'Springfield',
  state: 'IL',
  country: 'United States',
  zip: '62701',
  latitude: '39.80172000',
  longitude: '-89.64371000',
};
const STATION_2 = {
  address: '455 Oak Avenue',
  city: 'Springfield',
  state: 'IL',
  country: 'United States',
  zip: '62704',
  latitude: '39.78250000',
  longitude: '-89.68100000',
};

type DemoAssignment = Omit<CreateAssignmentBody, 'start' | 'end'> & {
  hours: [string, string, number];
  weekday?: number;
  group: 'Suppression' | 'EMS' | 'Command';
  needs: string[];
};

/** A 24-hour unit: name, positions to fill, color, station, group label, qualifiers needed. */
type DemoUnit = [string, number, string, typeof STATION_1, DemoAssignment['group'], string[]];

/** The 24-hour units come first; the rotations seed places DEMO_ROSTER's members on them by name. */
const UNITS: DemoUnit[] = [
  ['Engine 1', 3, '#E53935', STATION_1, 'Suppression', ['OFF', 'DO']],
  ['Engine 2', 3, '#FB8C00', STATION_2, 'Suppression', ['OFF', 'DO']],
  ['Ladder 1', 3, '#8E24AA', STATION_1, 'Suppression', ['OFF', 'DO']],
  ['Medic 1', 2, '#1E88E5', STATION_2, 'EMS', ['PM']],
  ['Battalion Chief', 1, '#546E7A', STATION_1, 'Command', ['OFF']],
];

const ASSIGNMENTS: DemoAssignment[] = [
  ...UNITS.map(
    ([name, positions_to_fill, color, location, group, needs]): DemoAssignment => ({
      name,
      positions_to_fill,
      color,
      location,
      hours: ['07:00', '07:00', 1],
      group,
      needs,
    }),
  ),
  {
    name: 'Training',
    positions_to_fill: 6,
    is_work_shift: false,
    color: '#43A047',
    rrule: 'FREQ=WEEKLY;BYDAY=WE',
    notes: 'Weekly drill at the training tower',
    hours: ['09:00', '12:00', 0],
    weekday: 3,
    group: 'Suppression',
    needs: [],
  },
];

async function qualifierIdsByShortcode(ctx: DemoSeedContext): Promise<Map<string, number>> {
  const rows = await orgColumns(ctx.db, 'qualifier', ctx.auth.orgId, ['id', 'shortcode'])
    .where('deleted_at', 'is', null)
    .execute();
  return new Map(rows.flatMap((row) => (row.shortcode ? [[row.shortcode.toUpperCase(), row.id] as const] : [])));
}

async function seedGroupLabels(ctx: DemoSeedContext): Promise<Record<DemoAssignment['group'], number>> {
  const colors = { Suppression: '#C62828', EMS: '#1565C0', Command: '#37474F' } as const;
  const ids = {} as Record<DemoAssignment['group'], number>;
  for (const [name, color] of Object.entries(colors) as Array<[DemoAssignment['group'], string]>) {
    ids[name] = await insertGroupLabel(ctx.db, ctx.auth.orgId, name, color);
    await writeLog(ctx.db, ctx.auth, {
      action: 'assignment_group.created',
      description: `created assignment group label ${name}.`,
      actorUserId: ctx.adminId,
      entityType: 'assignment_group',
      entityId: ids[name],
    });
  }
  return ids;
}

/** The month's notes, a training misc-hours entry per crew member, and the past week finalized. */
async function seedDayRecords(ctx: DemoSeedContext, assignmentIds: number[]): Promise<void> {
  const today = todayIn(ctx.auth.timezone);
  const monthStart = today.with({ day: 1 });
  await replaceDayNotes(ctx.db, ctx.auth.orgId, monthStart.toString(), 'note', [
    '<p>Hydrant testing all month: report defects to <b>Station 1</b>.</p>',
  ]);
  await replaceDayNotes(ctx.db, ctx.auth.orgId, today.toString(), 'activity', [
    '<p>Public education visit, Lincoln Elementary, 10:00</p>',
  ]);
  const training = await createWorkType(ctx.db, ctx.auth, {
    label: 'Training',
    work_code: 'TRN',
    primary_color: '#43A047',
  });
  const date = monthStart.add({ days: 1 }).toString();
  for (const userId of ctx.userIds.slice(1, 5)) {
    const values = {
      user_id: userId,
      date,
      start: `${date} 13:00:00`,
      end: `${date} 17:00:00`,
      length: 4,
      work_type_id: training,
    };
    await insertMiscHour(ctx.db, ctx.auth.orgId, {
      ...values,
      work_subtype_id: null,
      notes: 'EMS continuing education',
      source: null,
      source_id: null,
    });
  }
  await writeLog(ctx.db, ctx.auth, {
    action: 'misc_hour.created',
    description: `added EMS continuing education misc hours on ${date}.`,
    actorUserId: ctx.adminId,
  });
  for (const [index, assignmentId] of assignmentIds.slice(0, 5).entries()) {
    const dates = [1, 2, 3].map((back) => today.subtract({ days: back }).toString());
    for (const date of dates)
      await insertFinalization(ctx.db, ctx.auth.orgId, {
        assignmentId,
        date,
        adminId: ctx.adminId,
        createdAt: nowUtc(),
      });
    await logFinalization(
      ctx.db,
      ctx.auth,
      { id: assignmentId, name: ASSIGNMENTS[index]!.name },
      dates,
      ctx.adminId,
      true,
    );
  }
}

async function seedOvertimeSubtypes(ctx: DemoSeedContext): Promise<void> {
  const overtime = await orgColumns(ctx.db, 'work_type', ctx.auth.orgId, ['id'])
    .where('label', '=', 'Overtime')
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!overtime) return;
  await createWorkSubtype(ctx.db, ctx.auth, { work_type_id: overtime.id, label: 'Holdover', work_code: 'HO' });
  await createWorkSubtype(ctx.db, ctx.auth, { work_type_id: overtime.id, label: 'Mandatory', work_code: 'M-OT' });
}

export async function seedDemo(ctx: DemoSeedContext): Promise<Record<string, number>> {
  await seedOvertimeSubtypes(ctx);
  const firstDay = todayIn(ctx.auth.timezone).with({ day: 1 }).subtract({ months: 1 });
  const qualifiers = await qualifierIdsByShortcode(ctx);
  const groups = await seedGroupLabels(ctx);
  const assignmentIds: number[] = [];
  for (const [index, { hours, weekday, group, needs, ...body }] of ASSIGNMENTS.entries()) {
    const [startTime, endTime, endDayOffset] = hours;
    const first = weekday ? firstDay.add({ days: (weekday - firstDay.dayOfWeek + 7) % 7 }) : firstDay;
    const id = await createAssignment(ctx.db, ctx.auth, {
      ...body,
      position: index + 1,
      start: `${first.toString()} ${startTime}:00`,
      end: `${first.add({ days: endDayOffset }).toString()} ${endTime}:00`,
      admin_id: ctx.adminId,
      qualifiers_needed: needs.flatMap((code) =>
        qualifiers.has(code) ? [{ id: qualifiers.get(code)!, minimum_staffing: 1 }] : [],
      ),
    });
    await replaceGroupLabels(ctx.db, ctx.auth.orgId, id, [groups[group]]);
    assignmentIds.push(id);
  }
  ctx.shared.assignmentIds = assignmentIds;
  await seedDayRecords(ctx, assignmentIds);
  return { assignments: assignmentIds.length };
}
