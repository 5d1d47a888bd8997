import type { Db } from '../../core/db/transaction.js';
import { hoursBetween, round } from '../../core/time.js';
import { listMembers } from '../lists/repository.js';
import { findUsersByIds } from '../users/repository.js';
import { fullName } from '../users/serialize.js';
import { callbackPeopleOf, callbackShiftsOf, forcedHiresOf } from './repository.js';

/** The hours the report counts per person (docs/workflows.md, "Overtime equalization"). */
export const MEASURES = ['offered', 'accepted', 'refused', 'forced', 'worked'] as const;
export type Measure = (typeof MEASURES)[number];
export type Hours = Record<Measure, number>;

export interface EqualizationRow extends Hours {
  user: { id: number; name: string };
  member: boolean;
}

export interface Equalization {
  list: { id: number; name: string };
  start: string;
  end: string;
  people: EqualizationRow[];
  mean: Hours;
  /** population standard deviation of each measure over the people */
  standard_deviation: Hours;
}

type Period = { start: string; end: string };

/** Hours of forced hire per user on the list in the period (see {@link forcedHiresOf}). */
async function forcedHireHours(db: Db, orgId: number, listId: number, period: Period, timeZone: string) {
  const hours = new Map<number, number>();
  for (const hire of await forcedHiresOf(db, orgId, listId, period))
    if (hire.user_id !== null)
      hours.set(hire.user_id, (hours.get(hire.user_id) ?? 0) + hoursBetween(hire.start, hire.end, timeZone));
  return hours;
}

const zero = (): Hours => ({ offered: 0, accepted: 0, refused: 0, forced: 0, worked: 0 });

/** Mean and population standard deviation of each measure. */
function spread(rows: Hours[]): { mean: Hours; standard_deviation: Hours } {
  const mean = zero();
  const deviation = zero();
  if (rows.length === 0) return { mean, standard_deviation: deviation };
  for (const measure of MEASURES) {
    const values = rows.map((r) => r[measure]);
    const average = values.reduce((a, b) => a + b, 0) / values.length;
    const variance = values.reduce((a, b) => a + (b - average) ** 2, 0) / values.length;
    mean[measure] = round(average);
    deviation[measure] = round(Math.sqrt(variance));
  }
  return { mean, standard_deviation: deviation };
}

/**
 * Per person of the list (its members now, and anyone its callbacks in the period reached), over
 * the callbacks of the list starting in [start, end): hours offered (contacted), accepted (the
 * hours they took), refused (declined or no answer), forced and worked (the shifts the callbacks
 * placed, as they stand now); with the list's mean and spread.
 */
export async function equalizationOf(
  db: Db,
  orgId: number,
  timeZone: string,
  list: { id: number; name: string },
  period: Period,
): Promise<Equalization> {
  const [members, answers, shifts, forced] = await Promise.all([
    listMembers(db, orgId, list.id),
    callbackPeopleOf(db, orgId, list.id, period),
    callbackShiftsOf(db, orgId, list.id, period),
    forcedHireHours(db, orgId, list.id, period, timeZone),
  ]);
  const hours = new Map<number, Hours>(members.map((m) => [m.id, zero()]));
  const of = (userId: number) => hours.get(userId) ?? hours.set(userId, zero()).get(userId)!;
  for (const row of answers) {
    const span = hoursBetween(row.start, row.end, timeZone);
    const person = of(row.user_id);
    if (row.contact_time !== null || row.status !== 'pending') person.offered += span;
    if (row.status === 'accepted')
      person.accepted += hoursBetween(row.start_time ?? row.start, row.end_time ?? row.end, timeZone);
    if (row.status === 'denied' || row.status === 'no answer') person.refused += span;
  }
  for (const shift of shifts) of(shift.user_id).worked += hoursBetween(shift.start, shift.end, timeZone);
  for (const [userId, forcedHours] of forced) of(userId).forced += forcedHours;
  const users = await findUsersByIds(db, orgId, [...hours.keys()]);
  const isMember = new Set(members.map((m) => m.id));
  const people = [...hours.entries()]
    .map(([id, h]) => {
      const user = users.get(id);
      const rounded = Object.fromEntries(MEASURES.map((m) => [m, round(h[m])])) as Hours;
      return { user: { id, name: user ? fullName(user) : `#${id}` }, member: isMember.has(id), ...rounded };
    })
    .sort((a, b) => a.user.name.localeCompare(b.user.name) || a.user.id - b.user.id);
  return { list, start: period.start, end: period.end, people, ...spread(people) };
}
