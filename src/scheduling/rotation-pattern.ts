import { epochDayOfText, Temporal } from '../core/time.js';

/**
 * The rotation engine, pure. A rotation is a cycle of N days anchored at a date: entry 0 is off,
 * entry k ≥ 1 is on duty at the member's k-th assignment (k > 1 only in compound rotations).
 * A member (recurring shift) follows the cycle shifted by its crew offset: on day d it works
 * `pattern[(d - anchor - offset) mod N]`. With Kelly days every Nth on-duty shift of the member
 * is not scheduled.
 */
export interface RotationPattern {
  anchorDate: string;
  pattern: number[];
  kellyEvery: number | null;
}

export interface Membership {
  crewOffset: number;
  kellyOffset: number;
}

export interface Preset {
  pattern: number[];
  crews: Record<string, number>;
  kellyEvery?: number;
}

/** Rotations worth shipping; crews are day offsets into the pattern. */
export const PRESETS: Record<string, Preset> = {
  '24/48': { pattern: [1, 0, 0], crews: { A: 0, B: 1, C: 2 } },
  '24/48-kelly': { pattern: [1, 0, 0], crews: { A: 0, B: 1, C: 2 }, kellyEvery: 7 },
  '48/96': { pattern: [1, 1, 0, 0, 0, 0], crews: { A: 0, B: 2, C: 4 } },
  '1-2-1-4': { pattern: [1, 0, 0, 1, 0, 0, 0, 0], crews: { A: 0, B: 2, C: 4, D: 6 } },
  // the 9-day platoon cycle A,C,A,B,A,B,C,B,C: crew A's days 0,2,4; B and C are A shifted by 3 and 6
  'platoon-9': { pattern: [1, 0, 1, 0, 1, 0, 0, 0, 0], crews: { A: 0, B: 3, C: 6 } },
  '4on-4off': { pattern: [1, 1, 1, 1, 0, 0, 0, 0], crews: { A: 0, B: 4 } },
};

const floorMod = (a: number, n: number) => ((a % n) + n) % n;

/**
 * Calendar days from one date to another. Runs for every member and day of an expanded range, so
 * `YYYY-MM-DD` takes plain arithmetic (a Temporal round trip per call was a tenth of GET /schedule).
 */
export function daysBetween(from: string, to: string): number {
  const [a, b] = [epochDayOfText(from), epochDayOfText(to)];
  if (a !== undefined && b !== undefined) return b - a;
  return Temporal.PlainDate.from(from).until(Temporal.PlainDate.from(to), { largestUnit: 'days' }).days;
}

/** The member's duty on `date`: the assignment slot (1-based, 0 when off) and whether it is a Kelly day. */
export function dutyOn(rotation: RotationPattern, member: Membership, date: string): { slot: number; kelly: boolean } {
  const cycle = rotation.pattern.length;
  const dayInRun = daysBetween(rotation.anchorDate, date) - member.crewOffset;
  const position = floorMod(dayInRun, cycle);
  const slot = rotation.pattern[position] ?? 0;
  if (slot === 0 || !rotation.kellyEvery) return { slot, kelly: false };
  const onPerCycle = rotation.pattern.filter((entry) => entry !== 0).length;
  const onBefore = rotation.pattern.slice(0, position).filter((entry) => entry !== 0).length;
  const shiftIndex = Math.floor(dayInRun / cycle) * onPerCycle + onBefore + member.kellyOffset;
  return floorMod(shiftIndex, rotation.kellyEvery) === rotation.kellyEvery - 1
    ? { slot, kelly: true }
    : { slot, kelly: false };
}

/** The assignment slot (1-based) the member works on `date`, or 0 when off duty or on a Kelly day. */
export function slotOn(rotation: RotationPattern, member: Membership, date: string): number {
  const duty = dutyOn(rotation, member, date);
  return duty.kelly ? 0 : duty.slot;
}

/** Length in days after which the member's schedule repeats (Kelly days included). */
export function fullCycleDays(rotation: RotationPattern): number {
  if (!rotation.kellyEvery) return rotation.pattern.length;
  const onPerCycle = rotation.pattern.filter((entry) => entry !== 0).length;
  const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
  return (rotation.pattern.length * rotation.kellyEvery) / gcd(onPerCycle, rotation.kellyEvery);
}
