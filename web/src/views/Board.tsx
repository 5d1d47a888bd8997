import { api } from '../api';
import { Chip, Loaded, readableOn } from '../components';
import { addDays, addMonths, daysBetween, monthName, monthRange, parseDate, span, timeOf, today, weekdayName, weekRange } from '../dates';
import { useLoad } from '../hooks';
import type { AssignmentDay, DayLabels, DayTimeOff, Schedule, Shift, VisualCycle } from '../types';

export type BoardMode = 'month' | 'week';

interface BoardData {
  schedule: Schedule;
  labels: DayLabels;
  cycles: VisualCycle[];
}

async function loadBoard(start: string, end: string): Promise<BoardData> {
  const [schedule, labels, cycles] = await Promise.all([
    api.get<Schedule>('/schedule', { start: `${start} 00:00:00`, end: `${end} 23:59:59` }),
    api.get<DayLabels>('/day_labels', { start, end }),
    api.get<VisualCycle[]>('/visual_cycles', { start, end }),
  ]);
  return { schedule, labels, cycles };
}

/** Assignments in the order they first appear, each with its day entries by date. */
function assignmentRows(schedule: Schedule): Array<{ id: number; name: string; byDate: Map<string, AssignmentDay> }> {
  const rows = new Map<number, { id: number; name: string; byDate: Map<string, AssignmentDay> }>();
  for (const day of schedule.days) {
    for (const assignment of day.assignments) {
      const row = rows.get(assignment.id) ?? { id: assignment.id, name: assignment.name, byDate: new Map() };
      row.byDate.set(day.date, assignment);
      rows.set(assignment.id, row);
    }
  }
  return [...rows.values()];
}

/** What an assignment lacks on a day: people below minimum_staffing, and required qualifiers. */
export function shortages(assignment: AssignmentDay): Array<{ brief: string; full: string }> {
  const problems: Array<{ brief: string; full: string }> = [];
  const staffed = assignment.shifts.length;
  if (staffed < assignment.minimum_staffing) {
    problems.push({ brief: `${staffed}/${assignment.minimum_staffing}`, full: `${staffed} of ${assignment.minimum_staffing} staffed` });
  }
  for (const needed of assignment.qualifiers_needed) {
    const have = assignment.shifts.filter((shift) => shift.qualifiers.some((q) => q.id === needed.id)).length;
    const name = needed.shortcode || needed.name;
    if (have < needed.minimum_staffing) problems.push({ brief: `${name} ${have}/${needed.minimum_staffing}`, full: `${name}: ${have} of ${needed.minimum_staffing}` });
  }
  return problems;
}

/** Chip colours for a qualifier that has none. */
const NEUTRAL = { color: '#E5E7EB', text: '#111111' };

function ShiftChip({ shift, compact }: { shift: Shift; compact: boolean }) {
  const kind = shift.recurring ? 'rotation' : 'one-off shift';
  const title = `${shift.user.name}, ${shift.work_type.name} (${kind}) ${span(shift.start, shift.end)}`;
  return (
    <li class={`shift ${shift.recurring ? 'recurring' : 'one-off'}`} title={title}>
      <Chip color={shift.work_type.color} textColor={shift.work_type.text_color}>
        <span aria-hidden="true">{shift.recurring ? '↻ ' : '★ '}</span>
        <span class="visually-hidden">{kind}: </span>
        {compact ? initials(shift.user.name) : shift.user.name}
        {!compact && <span class="hours"> {timeOf(shift.start)}–{timeOf(shift.end)}</span>}
      </Chip>
      {shift.labels.map((label) => (
        <Chip key={`l${label.id}`} color={label.color} textColor={label.text_color} class="tag" title={`label ${label.label}`}>
          {label.label}
        </Chip>
      ))}
      {shift.qualifiers.map((q) => (
        <Chip key={`q${q.id}`} color={q.color ?? NEUTRAL.color} textColor={q.text_color ?? NEUTRAL.text} class="tag" title={`qualifier ${q.name}`}>
          {q.shortcode}
        </Chip>
      ))}
    </li>
  );
}

function initials(name: string): string {
  const parts = name.split(/\s+/).filter(Boolean);
  return parts.length > 1 ? `${parts[0][0]}. ${parts[parts.length - 1]}` : name;
}

function AssignmentCell({ assignment, compact }: { assignment: AssignmentDay | undefined; compact: boolean }) {
  if (!assignment) return <td class="empty" />;
  const problems = shortages(assignment);
  return (
    <td class={problems.length ? 'short' : undefined}>
      {problems.length > 0 && (
        <p class="shortage" title={problems.map((p) => p.full).join('; ')}>
          <span aria-hidden="true">⚠ {compact ? problems.map((p) => p.brief).join(' · ') : problems.map((p) => p.full).join('; ')}</span>
          <span class="visually-hidden">short: {problems.map((p) => p.full).join('; ')}</span>
        </p>
      )}
      <ul class="shifts">
        {assignment.shifts.map((shift) => (
          <ShiftChip key={shift.id} shift={shift} compact={compact} />
        ))}
      </ul>
    </td>
  );
}

function TimeOffCell({ entries, compact }: { entries: DayTimeOff[]; compact: boolean }) {
  return (
    <td>
      <ul class="shifts">
        {entries.map((entry) => (
          <li key={`${entry.id}-${entry.start}`} title={`${entry.user.name}: ${entry.time_off_type.name} ${span(entry.start, entry.end)}`}>
            <Chip color={entry.time_off_type.color} textColor={entry.time_off_type.text_color}>
              {entry.time_off_type.work_code ?? entry.time_off_type.name} {compact ? initials(entry.user.name) : entry.user.name}
            </Chip>
          </li>
        ))}
      </ul>
    </td>
  );
}

function cycleOf(cycles: VisualCycle[], day: string): VisualCycle | undefined {
  return cycles.find((cycle) => cycle.start.slice(0, 10) <= day && day <= cycle.end.slice(0, 10));
}

function BoardTable({ data, days, mode }: { data: BoardData; days: string[]; mode: BoardMode }) {
  const rows = assignmentRows(data.schedule);
  const byDate = new Map(data.schedule.days.map((day) => [day.date, day]));
  const compact = mode === 'month';
  const current = today();
  return (
    <div class="board-scroll" tabIndex={0} aria-label="schedule grid, scrolls sideways">
      <table class={`board ${mode}`}>
        <caption class="visually-hidden">Shifts by assignment and day</caption>
        <thead>
          <tr>
            <th scope="col" class="corner">Assignment</th>
            {days.map((day) => {
              const label = data.labels.days[day];
              const cycle = cycleOf(data.cycles, day);
              return (
                <th scope="col" key={day} class={day === current ? 'today' : undefined} style={cycle ? { borderTop: `6px solid ${cycle.color}` } : undefined} title={cycle ? `cycle ${cycle.name}` : undefined}>
                  <span class="weekday">{weekdayName(day)}</span> <span class="date">{parseDate(day).getUTCDate()}</span>
                  {cycle && <span class="visually-hidden"> cycle {cycle.name}</span>}
                  {label && (
                    <span class="day-label" style={{ background: label.color, color: readableOn(label.color) }}>
                      {label.label}
                    </span>
                  )}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 && (
            <tr>
              <td colSpan={days.length + 1}>No assignments in this period.</td>
            </tr>
          )}
          {rows.map((row) => (
            <tr key={row.id}>
              <th scope="row">{row.name}</th>
              {days.map((day) => (
                <AssignmentCell key={day} assignment={row.byDate.get(day)} compact={compact} />
              ))}
            </tr>
          ))}
          <tr class="time-off-row">
            <th scope="row">Time off</th>
            {days.map((day) => (
              <TimeOffCell key={day} entries={byDate.get(day)?.time_off ?? []} compact={compact} />
            ))}
          </tr>
        </tbody>
      </table>
    </div>
  );
}

function Legend() {
  return (
    <p class="legend">
      <span>↻ rotation</span> <span>★ one-off shift</span> <span class="legend-short">⚠ short of staffing or a qualifier</span>
      <span>colored top border: visual cycle</span>
    </p>
  );
}

export function Board({ mode, anchor, navigate }: { mode: BoardMode; anchor: string; navigate: (hash: string) => void }) {
  const range = mode === 'month' ? monthRange(anchor) : weekRange(anchor);
  const [value, reload] = useLoad(() => loadBoard(range.start, range.end), [range.start, range.end]);
  const step = (direction: number) => (mode === 'month' ? addMonths(anchor, direction) : addDays(range.start, 7 * direction));
  const title = mode === 'month' ? monthName(range.start) : `Week of ${monthName(range.start).split(' ')[0]} ${parseDate(range.start).getUTCDate()}`;
  return (
    <section aria-labelledby="board-title">
      <div class="toolbar">
        <h1 id="board-title">{title}</h1>
        <div class="buttons no-print">
          <button type="button" onClick={() => navigate(`#/${mode}/${step(-1)}`)} aria-label={`previous ${mode}`}>
            ‹ Prev
          </button>
          <button type="button" onClick={() => navigate(`#/${mode}/${today()}`)}>
            Today
          </button>
          <button type="button" onClick={() => navigate(`#/${mode}/${step(1)}`)} aria-label={`next ${mode}`}>
            Next ›
          </button>
          <button type="button" onClick={() => navigate(mode === 'month' ? `#/week/${range.start}` : `#/month/${range.start}`)}>
            {mode === 'month' ? 'Week view' : 'Month view'}
          </button>
          {mode === 'month' && (
            <button type="button" onClick={() => window.print()}>
              Print
            </button>
          )}
        </div>
      </div>
      <Legend />
      <Loaded value={value} what="the schedule" retry={reload}>
        {(data) => <BoardTable data={data} days={daysBetween(range.start, range.end)} mode={mode} />}
      </Loaded>
    </section>
  );
}
