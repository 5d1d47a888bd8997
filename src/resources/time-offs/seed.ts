import type { DemoSeedContext } from '../../cli/seed.js';
import { formatLocalDateTime, todayIn, type Temporal } from '../../core/time.js';
import { adjustBank } from '../accruals/ledger.js';
import { saveProfile } from '../accruals/rules.js';
import { findTimeOffTypeOrInvalid } from '../time-off-types/repository.js';
import { createTimeOffType } from '../time-off-types/rules.js';
import { findUserOrInvalid, updateUser } from '../users/repository.js';
import { createTimeOff } from './rules.js';
import { APPROVED, PENDING } from './table.js';

export const seedOrder = 40;

const TYPES = [
  { label: 'Vacation', work_code: 'VAC', primary_color: '#3f5647', secondary_color: '#FFFFFF', forward: true, required_buffer: 24 },
  { label: 'Sick', work_code: 'SL', primary_color: '#2474a9', secondary_color: '#FFFFFF', force_include: true },
  { label: 'Kelly Day', work_code: 'KD', primary_color: '#7c3aed', secondary_color: '#FFFFFF' },
  { label: 'Comp Time', work_code: 'CT', primary_color: '#b45309', secondary_color: '#FFFFFF', allow_negative: true },
];

const at = (date: Temporal.PlainDate, hour = 7) => formatLocalDateTime(date.toPlainDateTime({ hour }));

/** Demo time off: the four usual types, an accrual profile with banks, pending and approved requests this month. */
export async function seedDemo(ctx: DemoSeedContext): Promise<Record<string, number>> {
  const { db, auth, adminId, userIds } = ctx;
  const typeIds: number[] = [];
  for (const type of TYPES) typeIds.push(await createTimeOffType(db, auth, type));
  const [vacationId, sickId, kellyId, compId] = typeIds;

  const profileId = await saveProfile(db, auth, null, {
    name: 'Firefighter',
    rules: [
      { time_off_type_id: vacationId, method: 'year', hours: 144, max_hours: 300 },
      { time_off_type_id: sickId, method: 'pay_period', hours: 6, max_hours: 150 },
      { time_off_type_id: compId, method: 'none' },
    ],
  });
  const crew = userIds.filter((id) => id !== adminId);
  const admin = await findUserOrInvalid(db, auth.orgId, adminId);
  let banks = 0;
  for (const userId of crew) {
    await updateUser(db, auth.orgId, userId, { accrual_profile_id: profileId });
    const user = await findUserOrInvalid(db, auth.orgId, userId);
    for (const [typeId, hours] of [[vacationId, 96], [sickId, 48]]) {
      const type = await findTimeOffTypeOrInvalid(db, auth.orgId, typeId);
      await adjustBank(db, auth, { user, admin, type, hours, notes: 'Opening balance' });
      banks += 1;
    }
  }

  const today = todayIn(auth.timezone);
  const monthStart = today.with({ day: 1 });
  // the rotation seed puts crew[i] in crew A/B/C of a 24/48 anchored at monthStart: crew[i] works days i, i + 3, …
  // so each approved entry below lands on its user's on-duty days (and Kelly days repeat every 7th shift: 21 days)
  const base = { adminIds: [adminId], userNote: null, rrule: null, requestedByUser: false };
  const entries = [
    { ...base, userId: crew[0], typeId: vacationId, start: at(monthStart.add({ days: 2 })), end: at(monthStart.add({ days: 4 })), status: APPROVED },
    { ...base, userId: crew[1], typeId: sickId, start: at(monthStart.add({ days: 10 })), end: at(monthStart.add({ days: 11 })), status: APPROVED },
    {
      ...base,
      userId: crew[2],
      typeId: kellyId,
      start: at(monthStart.add({ days: 2 })),
      end: at(monthStart.add({ days: 3 })),
      status: APPROVED,
      rrule: 'FREQ=DAILY;INTERVAL=21;COUNT=6',
    },
    { ...base, userId: crew[3], typeId: vacationId, start: at(today.add({ days: 7 })), end: at(today.add({ days: 9 })), status: PENDING, userNote: 'Family trip', requestedByUser: true, adminIds: [] },
    { ...base, userId: crew[4], typeId: compId, start: at(today.add({ days: 3 }), 8), end: at(today.add({ days: 3 }), 18), status: PENDING },
  ];
  for (const entry of entries) await createTimeOff(db, auth, entry);
  return { time_off_types: typeIds.length, time_offs: entries.length, accrual_banks: banks };
}
