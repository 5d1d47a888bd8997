/** The board's data and what it works out of it: no components here, so every part may import it. */
import { call, client, queryOf } from '../../api';
import type {
  AssignmentDay,
  Callback,
  CallbackPage,
  DayLabels,
  GroupStaffing,
  Schedule,
  ScheduleDay,
  Shift,
  Vacancy,
  VisualCycle,
} from '../../types';

/**
 * `month`: a 7-column calendar; `week`: a roster of one week; `roster`: the month as one strip;
 * `agenda`: a list of days from the anchor (the phone's default); `day`: one day by apparatus and
 * seat (the admin's default).
 */
export type BoardMode = 'day' | 'month' | 'week' | 'roster' | 'agenda';

export interface BoardData {
  schedule: Schedule;
  labels: DayLabels;
  cycles: VisualCycle[];
  /** Callbacks still taking answers that start in the period. */
  callbacks: Callback[];
  /** The open seats of the period as GET /vacancies judges them (the day view only). */
  vacancies: Vacancy[];
}

/** What the side panel shows: an occurrence's open seat, or a person's shift. */
export type PanelTarget =
  | { kind: 'seat'; assignmentId: number; date: string; note?: string }
  | { kind: 'person'; shift: Shift; assignment: { id: number; name: string }; date: string };

/** What a cell may do: open the side panel (admins), or nothing (members). */
export interface Act {
  open: (target: PanelTarget) => void;
}

/** The number of days the agenda lists, the first one first. */
export const AGENDA_DAYS = 7;

const period = (start: string, end: string) => ({ start: `${start} 00:00:00`, end: `${end} 23:59:59` });

/** Every callback overlapping the period (all pages) that still takes answers. */
async function activeCallbacks(start: string, end: string): Promise<Callback[]> {
  const found: Callback[] = [];
  let page: CallbackPage = await call(client.GET('/v1/callbacks', { params: { query: period(start, end) } }));
  for (;;) {
    found.push(...page.data.filter((c) => c.status === 'active'));
    if (!page.pagination.next) return found;
    page = await call(client.GET('/v1/callbacks', { params: { query: queryOf(page.pagination.next) } }));
  }
}

export async function loadBoard(start: string, end: string, admin: boolean, seats = false): Promise<BoardData> {
  const [schedule, labels, cycles, callbacks, vacancies] = await Promise.all([
    call(client.GET('/v1/schedule', { params: { query: period(start, end) } })),
    call(client.GET('/v1/day_labels', { params: { query: { start, end } } })),
    call(client.GET('/v1/visual_cycles', { params: { query: { start, end } } })),
    admin ? activeCallbacks(start, end) : Promise.resolve([]),
    // members may not read GET /vacancies: their day view shows the schedule's staffing (the same engine's)
    seats && admin ? call(client.GET('/v1/vacancies', { params: { query: period(start, end) } })) : Promise.resolve([]),
  ]);
  // the groups' shortfalls come with the schedule's days (group_staffing), for members too
  const seatsOpen = vacancies.filter((v): v is Vacancy => 'assignment' in v);
  return { schedule, labels, cycles, callbacks, vacancies: seatsOpen };
}

/** The engine's verdict: seats open or a qualifier held by too few people on duty. */
export const isShort = (assignment: AssignmentDay) =>
  assignment.staffing.open > 0 || assignment.staffing.qualifier_shortfalls.length > 0;

/** The assignment groups short of their minimum on the day (a station's people or qualifiers), as the engine says. */
export const shortGroups = (day: ScheduleDay | undefined): GroupStaffing[] =>
  (day?.group_staffing ?? []).filter((g) => g.staffing.open > 0 || g.staffing.qualifier_shortfalls.length > 0);

/** Assignments worth a line on a day: those with seats to fill or people on them. */
export const shown = (assignment: AssignmentDay) => assignment.staffing.needed > 0 || assignment.shifts.length > 0;

/** What the engine says is missing, for people: `PM 0 of 1`. */
export function shortfalls(assignment: AssignmentDay): string[] {
  return assignment.staffing.qualifier_shortfalls.map((q) => `${q.shortcode ?? `#${q.id}`} ${q.have} of ${q.needed}`);
}

/** The day's roll-up from the engine's staffing: people on duty vs seats to fill, open seats. */
export function rollUp(day: ScheduleDay | undefined): {
  onDuty: number;
  minimum: number;
  open: number;
  short: boolean;
} {
  const work = (day?.assignments ?? []).filter((a) => a.staffing.needed > 0);
  return {
    onDuty: work.reduce((n, a) => n + a.staffing.scheduled, 0),
    minimum: work.reduce((n, a) => n + a.staffing.needed, 0),
    open: work.reduce((n, a) => n + a.staffing.open, 0),
    short: (day?.assignments ?? []).some(isShort) || shortGroups(day).length > 0,
  };
}

export type AssignmentRow = { id: number; name: string; byDate: Map<string, AssignmentDay> };

/** Assignments in the order they first appear, each with its day entries by date. */
export function assignmentRows(schedule: Schedule): AssignmentRow[] {
  const rows = new Map<number, AssignmentRow>();
  for (const day of schedule.days) {
    for (const assignment of day.assignments) {
      const row = rows.get(assignment.id) ?? { id: assignment.id, name: assignment.name, byDate: new Map() };
      row.byDate.set(day.date, assignment);
      rows.set(assignment.id, row);
    }
  }
  return [...rows.values()];
}

export function initials(name: string): string {
  const parts = name.split(/\s+/).filter(Boolean);
  return parts.length > 1 ? `${parts[0][0]}. ${parts[parts.length - 1]}` : name;
}

/** A stored note (sanitized HTML) as plain text, without running or rendering anything of it. */
export const noteText = (html: string) => new DOMParser().parseFromString(html, 'text/html').body.textContent ?? '';

/** The callbacks taking answers for the assignment's seat that start on the day (`assignment_id` of the callback). */
export function seatCallbacks(data: BoardData, date: string, assignmentId: number): Callback[] {
  return data.callbacks.filter((c) => c.assignment_id === assignmentId && c.start.slice(0, 10) === date);
}

/** The visual cycles covering the day, the shortest first: a one-day cycle (the platoon on duty) leads. */
export function cyclesOf(cycles: VisualCycle[], day: string): VisualCycle[] {
  const span = (cycle: VisualCycle) => Date.parse(cycle.end.slice(0, 10)) - Date.parse(cycle.start.slice(0, 10));
  return cycles
    .filter((cycle) => cycle.start.slice(0, 10) <= day && day <= cycle.end.slice(0, 10))
    .sort((a, b) => span(a) - span(b));
}

/** The day's colour and title from its visual cycles (the platoon of the day, when the cycles name it). */
export function cycleStyle(cycles: VisualCycle[]) {
  const [first] = cycles;
  return {
    style: first ? { borderTop: `6px solid ${first.color}` } : undefined,
    title: first ? `cycle ${cycles.map((cycle) => cycle.name).join(', ')}` : undefined,
  };
}
