import { parseJsonArray } from '../core/db/json.js';
import type { Db } from '../core/db/transaction.js';
import { addDays, datesFromTo } from '../core/time.js';
import type { OffLimitAction, OffLimitRow } from '../resources/off-limits/table.js';
import type { TimeOffRow } from '../resources/time-offs/table.js';
import { scheduleFacts } from './engine.js';
import {
  assignmentsByIds,
  groupsOfAssignments,
  loadQualifications,
  offLimitRules,
  platoonDates,
  userNamesOf,
} from './reads.js';
import { occurrencesInRange } from './recurrence.js';
import { countsAsWork, holds } from './staffing.js';
import { closeMinute } from './time-off.js';

/*
 * Limits on who may be off (docs/contract-rules.md). Who counts as off on a day is decided here
 * and nowhere else: a person is off on date D when approved time off overlaps their work dated D
 * (a rotation occurrence or a one-off shift on an assignment that counts as work, dated in the
 * organization's zone), unless that work is booked over the time off on purpose. A person with
 * no work that day is not off that day, whatever leave they hold.
 */

/** One overlap of approved time off with a person's work of the day. */
export interface OffOverlap {
  time_off_id: number;
  time_off_type_id: number;
  assignment_id: number;
}

/** A person off on a date, with every overlap that makes them so. */
export interface OffPerson {
  user_id: number;
  overlaps: OffOverlap[];
}

/** How far from its date a moved occurrence is looked for (work is still counted on its own date). */
const MOVED_REACH_DAYS = 2;

/** The longest recurring leave checked: its occurrences in its first year. */
const RECURRING_REACH_DAYS = 366;

/**
 * Who is off on each of the dates (countedAsApproved: pending entries counted as approved), by
 * date. Two engine reads whatever the number of dates (the work and the approved time off).
 */
export async function whoIsOff(
  db: Db,
  orgId: number,
  dates: string[],
  timeZone: string,
  countedAsApproved: number[] = [],
  userIds?: number[],
): Promise<Map<string, OffPerson[]>> {
  const result = new Map<string, OffPerson[]>(dates.map((date) => [date, []]));
  if (dates.length === 0) return result;
  const sorted = [...dates].sort();
  // work dated on the dates may lie beside them (an occurrence moved to the next day keeps its date)
  const facts = await scheduleFacts(db, orgId, {
    start: `${addDays(sorted[0]!, -MOVED_REACH_DAYS)} 00:00:00`,
    end: `${addDays(sorted[sorted.length - 1]!, 1 + MOVED_REACH_DAYS)} 00:00:00`,
    timezone: timeZone,
    userIds,
    countedAsApproved,
  });
  const work = facts.work.filter((item) => result.has(item.date) && !item.overrides_time_off);
  const assignments = await assignmentsByIds(
    db,
    orgId,
    work.map((item) => item.assignment_id),
  );
  const leaveByUser = new Map<number, typeof facts.timeOff>();
  for (const cover of facts.timeOff)
    leaveByUser.set(cover.timeOff.user_id, [...(leaveByUser.get(cover.timeOff.user_id) ?? []), cover]);
  const found = new Map<string, OffPerson>();
  for (const item of work) {
    const assignment = assignments.get(item.assignment_id);
    if (!assignment || !countsAsWork(assignment)) continue;
    for (const { timeOff } of leaveByUser.get(item.user_id) ?? []) {
      if (!(timeOff.start < item.end && timeOff.end > item.start)) continue;
      const key = `${item.date}|${item.user_id}`;
      let person = found.get(key);
      if (!person) {
        person = { user_id: item.user_id, overlaps: [] };
        found.set(key, person);
        result.get(item.date)!.push(person);
      }
      person.overlaps.push({
        time_off_id: timeOff.id,
        time_off_type_id: timeOff.time_off_type.id,
        assignment_id: item.assignment_id,
      });
    }
  }
  for (const people of result.values()) people.sort((a, b) => a.user_id - b.user_id);
  return result;
}

/** An off limit as the engine applies it. */
export type OffLimitRule = Omit<OffLimitRow, 'organization_id' | 'time_off_type_ids' | 'created_at' | 'updated_at'> & {
  time_off_type_ids: number[];
};

export const offLimitRuleOf = (row: OffLimitRow): OffLimitRule => ({
  id: row.id,
  name: row.name,
  max_off: row.max_off,
  action: row.action,
  platoon: row.platoon,
  assignment_group_id: row.assignment_group_id,
  qualifier_id: row.qualifier_id,
  time_off_type_ids: parseJsonArray<number>(row.time_off_type_ids).map(Number),
});

/** A day on which an entry would take one more person off than a rule allows. */
export interface OffLimitBreach {
  rule: OffLimitRule;
  date: string;
  /** the others the rule counts as off that day (the entry's person left out) */
  others: Array<{ user_id: number; name: string; time_off_id: number }>;
}

export interface OffLimitVerdict {
  breaches: OffLimitBreach[];
  /** the strongest action of the breaches (refuse, then require_approval, then warn); null when none */
  action: OffLimitAction | null;
}

const STRENGTH: Record<OffLimitAction, number> = { warn: 1, require_approval: 2, refuse: 3 };

/** The dates an entry's occurrences touch (a recurring entry: in its first year). */
function datesOfEntry(entry: Pick<TimeOffRow, 'start' | 'end' | 'rrule'>): string[] {
  const reach = `${addDays(entry.start.slice(0, 10), RECURRING_REACH_DAYS)} 00:00:00`;
  const occurrences = entry.rrule ? occurrencesInRange(entry, entry.start, reach) : [entry];
  return [
    ...new Set(
      occurrences.flatMap((o) => {
        const end = closeMinute(o.end);
        const last = end.slice(11) === '00:00:00' ? addDays(end.slice(0, 10), -1) : end.slice(0, 10);
        // the day before too: work dated then may reach into the leave
        return datesFromTo(
          addDays(o.start.slice(0, 10), -1),
          last < o.start.slice(0, 10) ? o.start.slice(0, 10) : last,
        );
      }),
    ),
  ].sort();
}

/**
 * The days each entry makes its person off, as `date|entry id` (whoIsOff decides): read before a
 * change of the person's work, so that the off limits judge only the days the change makes them off
 * anew (docs/contract-rules.md).
 */
export async function offDaysOfEntries(
  db: Db,
  orgId: number,
  userId: number,
  entries: Array<Pick<TimeOffRow, 'id' | 'start' | 'end' | 'rrule'>>,
  timeZone: string,
): Promise<Set<string>> {
  const days = new Set<string>();
  if (entries.length === 0) return days;
  const ids = new Set(entries.map((entry) => entry.id));
  const dates = [...new Set(entries.flatMap(datesOfEntry))].sort();
  for (const [date, people] of await whoIsOff(db, orgId, dates, timeZone, [], [userId]))
    for (const person of people)
      for (const overlap of person.overlaps)
        if (ids.has(overlap.time_off_id)) days.add(`${date}|${overlap.time_off_id}`);
  return days;
}

/**
 * What the off limits say of an entry (pending or approved) of the organization: each rule it
 * applies to and each date on which it would put more people off than the rule allows, with who
 * else is off (docs/contract-rules.md). The entry is counted as approved. A rule applies on a
 * date when the entry makes its person off that day within the rule's scopes: the platoon's days
 * (visual cycles of that name), work on an assignment of the group, the person holding the
 * qualifier that day, leave of one of the types. The caller holds the lock (lockOffLimits) when
 * the answer decides a write. Bidding asks the same: a pick is an entry.
 */
export async function offLimitVerdict(
  db: Db,
  orgId: number,
  entry: Pick<TimeOffRow, 'id' | 'user_id' | 'time_off_type_id' | 'start' | 'end' | 'rrule'>,
  timeZone: string,
): Promise<OffLimitVerdict> {
  const rules = (await offLimitRules(db, orgId))
    .map(offLimitRuleOf)
    .filter((r) => r.time_off_type_ids.length === 0 || r.time_off_type_ids.includes(entry.time_off_type_id));
  if (rules.length === 0) return { breaches: [], action: null };
  // the dates the entry makes its person off, then everyone off on them
  const mine = await whoIsOff(db, orgId, datesOfEntry(entry), timeZone, [entry.id], [entry.user_id]);
  const dates = [...mine].filter(([, people]) =>
    people.some((p) => p.overlaps.some((o) => o.time_off_id === entry.id)),
  );
  if (dates.length === 0) return { breaches: [], action: null };
  const off = await whoIsOff(
    db,
    orgId,
    dates.map(([date]) => date),
    timeZone,
    [entry.id],
  );
  const people = [...off.values()].flat();
  const [groups, qualifications, platoons] = await Promise.all([
    groupsOfAssignments(
      db,
      orgId,
      people.flatMap((p) => p.overlaps.map((o) => o.assignment_id)),
    ),
    loadQualifications(db, orgId, [...new Set(people.map((p) => p.user_id))]),
    platoonDates(
      db,
      orgId,
      rules.flatMap((r) => (r.platoon ? [r.platoon] : [])),
      dates[0]![0],
      dates[dates.length - 1]![0],
    ),
  ]);
  const onPlatoonDay = (rule: OffLimitRule, date: string) =>
    rule.platoon === null ||
    platoons.some((c) => c.name.toLowerCase() === rule.platoon!.toLowerCase() && c.start <= date && c.end >= date);
  const counts = (rule: OffLimitRule, person: OffPerson, date: string, only?: number) =>
    (rule.qualifier_id === null || holds(qualifications, person.user_id, rule.qualifier_id, date)) &&
    person.overlaps.some(
      (o) =>
        (only === undefined || o.time_off_id === only) &&
        (rule.time_off_type_ids.length === 0 || rule.time_off_type_ids.includes(o.time_off_type_id)) &&
        (rule.assignment_group_id === null || (groups.get(o.assignment_id) ?? []).includes(rule.assignment_group_id)),
    );
  const breaches: Array<Omit<OffLimitBreach, 'others'> & { others: OffPerson[] }> = [];
  for (const rule of rules) {
    for (const [date] of dates) {
      if (!onPlatoonDay(rule, date)) continue;
      const dayOff = off.get(date) ?? [];
      const me = dayOff.find((p) => p.user_id === entry.user_id);
      if (!me || !counts(rule, me, date, entry.id)) continue;
      const others = dayOff.filter((p) => p.user_id !== entry.user_id && counts(rule, p, date));
      if (others.length + 1 > rule.max_off) breaches.push({ rule, date, others });
    }
  }
  const names = await userNamesOf(
    db,
    orgId,
    breaches.flatMap((b) => b.others.map((p) => p.user_id)),
  );
  const action = breaches.reduce<OffLimitAction | null>(
    (strongest, b) => (strongest === null || STRENGTH[b.rule.action] > STRENGTH[strongest] ? b.rule.action : strongest),
    null,
  );
  return {
    action,
    breaches: breaches.map((b) => ({
      ...b,
      others: b.others.map((p) => ({
        user_id: p.user_id,
        name: names.get(p.user_id) ?? '',
        time_off_id: p.overlaps[0]!.time_off_id,
      })),
    })),
  };
}
