import { readableOn } from '../../components';
import { parseDate, weekdayName } from '../../dates';
import type { ScheduleDay, VisualCycle } from '../../types';
import { type BoardData, cyclesOf, noteText, shortGroups } from './model';
import { CallbackLine, RollUp } from './Post';

/** The day's leading cycle as a coloured badge in the day header (its first word where space is short). */
export function CycleBadge({ cycles, brief }: { cycles: VisualCycle[]; brief?: boolean }) {
  const [first] = cycles;
  if (!first) return null;
  return (
    <>
      <span class="cycle" style={{ background: first.color, color: readableOn(first.color) }} aria-hidden="true">
        {brief ? first.name.split(' ')[0] : first.name}
      </span>
      <span class="visually-hidden"> cycle {cycles.map((cycle) => cycle.name).join(', ')}</span>
    </>
  );
}

/** The visual cycles in view, each name once: the legend of the day headers' colours (the platoons). */
export function CycleLegend({ cycles }: { cycles: VisualCycle[] }) {
  const named = [...new Map(cycles.map((cycle) => [cycle.name, cycle])).values()];
  if (named.length === 0) return null;
  return (
    <p class="cycle-legend">
      <span>Day colours (visual cycles):</span>
      {named.map((cycle) => (
        <span key={cycle.name} class="cycle" style={{ background: cycle.color, color: readableOn(cycle.color) }}>
          {cycle.name}
        </span>
      ))}
    </p>
  );
}

export function DayHead({
  data,
  day,
  brief,
  onSeats,
}: {
  data: BoardData;
  day: string;
  brief: boolean;
  onSeats: Set<number>;
}) {
  const label = data.labels.days[day];
  const cycles = cyclesOf(data.cycles, day);
  const entry = data.schedule.days.find((d) => d.date === day);
  return (
    <>
      <span class="weekday">{weekdayName(day)}</span> <span class="date">{parseDate(day).getUTCDate()}</span>
      <CycleBadge cycles={cycles} brief />
      {label && (
        <span class="day-label" style={{ background: label.color, color: readableOn(label.color) }}>
          {label.label}
        </span>
      )}
      <RollUp day={entry} brief={brief} />
      <DayExtras data={data} day={day} onSeats={onSeats} />
    </>
  );
}

/**
 * The day's notes and the callbacks taking answers that start that day, except those shown on
 * their seat (`onSeats`: the assignments the day shows as posts).
 */
export function DayExtras({ data, day, onSeats }: { data: BoardData; day: string; onSeats: Set<number> }) {
  const notes = data.schedule.days.find((d) => d.date === day)?.notes ?? [];
  const calls = data.callbacks.filter(
    (c) => c.start.slice(0, 10) === day && (c.assignment_id === null || !onSeats.has(c.assignment_id)),
  );
  if (notes.length === 0 && calls.length === 0) return null;
  return (
    <span class="day-extras">
      {notes.map((note, i) => (
        <span key={`n${i}`} class="day-note" title={noteText(note)}>
          <span aria-hidden="true">✎ </span>
          <span class="visually-hidden">Note: </span>
          {noteText(note)}
        </span>
      ))}
      {calls.map((c) => (
        <span key={`c${c.id}`} class="day-callback no-print">
          <CallbackLine callback={c} />
        </span>
      ))}
    </span>
  );
}

/** What the board's signs mean. */
export function Legend() {
  return (
    <p class="legend">
      <span>↻ rotation</span> <span>★ one-off shift</span> <span>n of m: people on duty of seats to fill</span>
      <span class="legend-short">⚠ open seats or a qualifier short</span>
      <span>coloured top border and badge: the day's visual cycle (the platoon on duty)</span>
    </p>
  );
}

/**
 * The assignment groups short of their minimum that day (a station's people on duty, its
 * qualifiers), as GET /schedule's `group_staffing` says: `Station 1: 6 of 8 on duty · PM 1 of 2`.
 */
export function GroupShortfalls({ day }: { day: ScheduleDay | undefined }) {
  const groups = shortGroups(day);
  if (groups.length === 0) return null;
  return (
    <ul class="group-short" aria-label="Groups short of their minimum">
      {groups.map(({ group, staffing }) => (
        <li key={group.id}>
          <span aria-hidden="true">⚠ </span>
          {group.name}: {staffing.scheduled} of {staffing.needed} on duty
          {staffing.qualifier_shortfalls.map((q) => ` · ${q.shortcode ?? `#${q.id}`} ${q.have} of ${q.needed}`)}
        </li>
      ))}
    </ul>
  );
}
