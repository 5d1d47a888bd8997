import { useEffect, useState } from 'preact/hooks';
import type { Session } from '../api';
import { api } from '../api';
import { Chip, Loaded, readableOn } from '../components';
import {
  addDays,
  addMonths,
  daysBetween,
  longDate,
  monthName,
  monthRange,
  parseDate,
  span,
  timeOf,
  today,
  weekdayName,
  weekRange,
} from '../dates';
import { useLoad } from '../hooks';
import type {
  AssignmentDay,
  Callback,
  CallbackPage,
  DayLabels,
  DayTimeOff,
  Schedule,
  ScheduleDay,
  Shift,
  VisualCycle,
} from '../types';
import { AGENDA_DAYS, Agenda } from './Agenda';
import { noteText, SidePanel, type PanelTarget } from './BoardPanel';

/**
 * `month`: a 7-column calendar; `week`: a roster of one week; `roster`: the month as one strip;
 * `agenda`: a list of days from the anchor (the phone's default).
 */
export type BoardMode = 'month' | 'week' | 'roster' | 'agenda';

export interface BoardData {
  schedule: Schedule;
  labels: DayLabels;
  cycles: VisualCycle[];
  /** Callbacks still taking answers that start in the period. */
  callbacks: Callback[];
}

/** Every callback overlapping the period (all pages) that still takes answers. */
async function activeCallbacks(start: string, end: string): Promise<Callback[]> {
  const found: Callback[] = [];
  let page = await api.get<CallbackPage>('/callbacks', { start: `${start} 00:00:00`, end: `${end} 23:59:59` });
  for (;;) {
    found.push(...page.data.filter((c) => c.status === 'active'));
    if (!page.pagination.next) return found;
    page = await api.follow<CallbackPage>(page.pagination.next);
  }
}

async function loadBoard(start: string, end: string, admin: boolean): Promise<BoardData> {
  const [schedule, labels, cycles, callbacks] = await Promise.all([
    api.get<Schedule>('/schedule', { start: `${start} 00:00:00`, end: `${end} 23:59:59` }),
    api.get<DayLabels>('/day_labels', { start, end }),
    api.get<VisualCycle[]>('/visual_cycles', { start, end }),
    admin ? activeCallbacks(start, end) : Promise.resolve([]),
  ]);
  return { schedule, labels, cycles, callbacks };
}

/** The engine's verdict: seats open or a qualifier held by too few people on duty. */
export const isShort = (assignment: AssignmentDay) =>
  assignment.staffing.open > 0 || assignment.staffing.qualifier_shortfalls.length > 0;

/** Assignments worth a line on a day: those with seats to fill or people on them. */
const shown = (assignment: AssignmentDay) => assignment.staffing.needed > 0 || assignment.shifts.length > 0;

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
    short: (day?.assignments ?? []).some(isShort),
  };
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

/** Chip colours for a qualifier that has none. */
const NEUTRAL = { color: '#E5E7EB', text: '#111111' };

export function initials(name: string): string {
  const parts = name.split(/\s+/).filter(Boolean);
  return parts.length > 1 ? `${parts[0][0]}. ${parts[parts.length - 1]}` : name;
}

/** What a cell may do: open the side panel (admins), or nothing (members). */
export interface Act {
  open: (target: PanelTarget) => void;
}

function ShiftChip({
  shift,
  compact,
  assignment,
  date,
  act,
}: {
  shift: Shift;
  compact: boolean;
  assignment: AssignmentDay;
  date: string;
  act?: Act;
}) {
  const kind = shift.recurring ? 'rotation' : 'one-off shift';
  const title = `${shift.user.name}, ${shift.work_type.name} (${kind}) ${span(shift.start, shift.end)}`;
  const person = (
    <Chip color={shift.work_type.color} textColor={shift.work_type.text_color}>
      <span aria-hidden="true">{shift.recurring ? '↻ ' : '★ '}</span>
      <span class="visually-hidden">{kind}: </span>
      {compact ? initials(shift.user.name) : shift.user.name}
      {!compact && (
        <span class="hours">
          {' '}
          {timeOf(shift.start)}–{timeOf(shift.end)}
        </span>
      )}
    </Chip>
  );
  return (
    <li class={`shift ${shift.recurring ? 'recurring' : 'one-off'}`} title={title}>
      {act ? (
        <button
          type="button"
          class="person"
          onClick={() =>
            act.open({ kind: 'person', shift, assignment: { id: assignment.id, name: assignment.name }, date })
          }
        >
          {person}
        </button>
      ) : (
        person
      )}
      {!compact &&
        shift.labels.map((label) => (
          <Chip
            key={`l${label.id}`}
            color={label.color}
            textColor={label.text_color}
            class="tag"
            title={`label ${label.label}`}
          >
            {label.label}
          </Chip>
        ))}
      {shift.qualifiers.map((q) => (
        <Chip
          key={`q${q.id}`}
          color={q.color ?? NEUTRAL.color}
          textColor={q.text_color ?? NEUTRAL.text}
          class="tag"
          title={`qualifier ${q.name}`}
        >
          {q.shortcode}
        </Chip>
      ))}
    </li>
  );
}

/** `2 of 3` with the missing qualifiers, and a warning only when the engine says it is short. */
function StaffingLine({ assignment }: { assignment: AssignmentDay }) {
  const { staffing } = assignment;
  if (staffing.needed === 0) return null;
  const short = isShort(assignment);
  const missing = shortfalls(assignment);
  return (
    <p class={`staffing${short ? ' short' : ''}`}>
      {short && <span aria-hidden="true">⚠ </span>}
      {staffing.scheduled} of {staffing.needed}
      {missing.length > 0 && <span class="missing"> · {missing.join(' · ')}</span>}
      {short && <span class="visually-hidden"> (short)</span>}
    </p>
  );
}

function OpenSeats({ assignment, date, act }: { assignment: AssignmentDay; date: string; act?: Act }) {
  const { open } = assignment.staffing;
  const short = isShort(assignment);
  if (!short) return null;
  const text = open > 0 ? `${open} open` : 'qualifier short';
  if (!act) return <span class="open-seat">{text}</span>;
  return (
    <button
      type="button"
      class="open-seat"
      data-assignment={assignment.id}
      data-date={date}
      aria-label={`${text}: ${assignment.name}, ${longDate(date)}, find a person`}
      onClick={() => act.open({ kind: 'seat', assignmentId: assignment.id, date })}
    >
      {text}
    </button>
  );
}

/** One assignment of one day: its staffing, its crew and its open seats. */
/** The callbacks taking answers for the assignment's seat that start on the day (`assignment_id` of the callback). */
function seatCallbacks(data: BoardData, date: string, assignmentId: number): Callback[] {
  return data.callbacks.filter((c) => c.assignment_id === assignmentId && c.start.slice(0, 10) === date);
}

function CallbackLine({ callback }: { callback: Callback }) {
  return (
    <>
      Callback #{callback.id} {callback.title.name}: {callback.positions_to_fill} to fill,{' '}
      {span(callback.start, callback.end)}
    </>
  );
}

function Post({
  assignment,
  date,
  compact,
  act,
  named,
  calls,
}: {
  assignment: AssignmentDay;
  date: string;
  compact: boolean;
  act?: Act;
  named: boolean;
  /** the callbacks filling this post's seats */
  calls: Callback[];
}) {
  return (
    <div class={`post${isShort(assignment) ? ' short' : ''}`} data-assignment={assignment.id}>
      {named ? (
        <h3 class="post-name">
          <span class="post-label">{assignment.name}</span> <StaffingLine assignment={assignment} />
        </h3>
      ) : (
        <StaffingLine assignment={assignment} />
      )}
      <ul class="shifts">
        {assignment.shifts.map((shift) => (
          <ShiftChip key={shift.id} shift={shift} compact={compact} assignment={assignment} date={date} act={act} />
        ))}
      </ul>
      <OpenSeats assignment={assignment} date={date} act={act} />
      {calls.map((c) => (
        <p key={c.id} class="seat-callback no-print" data-callback={c.id}>
          <span aria-hidden="true">☎ </span>
          <CallbackLine callback={c} />
        </p>
      ))}
    </div>
  );
}

function RollUp({ day, brief }: { day: ScheduleDay | undefined; brief?: boolean }) {
  const { onDuty, minimum, open, short } = rollUp(day);
  if (minimum === 0) return null;
  return (
    <span class={`rollup${short ? ' short' : ''}`} title={`${onDuty} on duty of ${minimum} seats, ${open} open`}>
      {brief ? `${onDuty}/${minimum}` : `${onDuty} of ${minimum} on duty`}
      {open > 0 && <> · {open} open</>}
    </span>
  );
}

function TimeOffList({ entries, compact }: { entries: DayTimeOff[]; compact: boolean }) {
  return (
    <ul class="shifts">
      {entries.map((entry) => (
        <li
          key={`${entry.id}-${entry.start}`}
          title={`${entry.user.name}: ${entry.time_off_type.name} ${span(entry.start, entry.end)}`}
        >
          <Chip color={entry.time_off_type.color} textColor={entry.time_off_type.text_color}>
            {entry.time_off_type.work_code ?? entry.time_off_type.name}{' '}
            {compact ? initials(entry.user.name) : entry.user.name}
          </Chip>
        </li>
      ))}
    </ul>
  );
}

/** The visual cycles covering the day, the shortest first: a one-day cycle (the platoon on duty) leads. */
function cyclesOf(cycles: VisualCycle[], day: string): VisualCycle[] {
  const span = (cycle: VisualCycle) => Date.parse(cycle.end.slice(0, 10)) - Date.parse(cycle.start.slice(0, 10));
  return cycles
    .filter((cycle) => cycle.start.slice(0, 10) <= day && day <= cycle.end.slice(0, 10))
    .sort((a, b) => span(a) - span(b));
}

/** The day's colour and title from its visual cycles (the platoon of the day, when the cycles name it). */
function cycleStyle(cycles: VisualCycle[]) {
  const [first] = cycles;
  return {
    style: first ? { borderTop: `6px solid ${first.color}` } : undefined,
    title: first ? `cycle ${cycles.map((cycle) => cycle.name).join(', ')}` : undefined,
  };
}

/** The day's leading cycle as a coloured badge in the day header (its first word where space is short). */
function CycleBadge({ cycles, brief }: { cycles: VisualCycle[]; brief?: boolean }) {
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
function CycleLegend({ cycles }: { cycles: VisualCycle[] }) {
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

function DayHead({
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
function DayExtras({ data, day, onSeats }: { data: BoardData; day: string; onSeats: Set<number> }) {
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

/** Week and roster: one row per assignment, one column per day. */
function BoardTable({
  data,
  days,
  mode,
  shortOnly,
  act,
}: {
  data: BoardData;
  days: string[];
  mode: BoardMode;
  shortOnly: boolean;
  act?: Act;
}) {
  const rows = assignmentRows(data.schedule).filter((row) => !shortOnly || [...row.byDate.values()].some(isShort));
  const byDate = new Map(data.schedule.days.map((day) => [day.date, day]));
  const compact = mode === 'roster';
  const current = today();
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: the grid scrolls sideways; keyboard users focus the region to scroll it
    <section class="board-scroll" tabIndex={0} aria-label="schedule grid">
      <table class={`board ${mode}`}>
        <caption class="visually-hidden">Shifts by assignment and day</caption>
        <thead>
          <tr>
            <th scope="col" class="corner">
              Assignment
            </th>
            {days.map((day) => {
              return (
                <th
                  scope="col"
                  key={day}
                  class={day === current ? 'today' : undefined}
                  {...cycleStyle(cyclesOf(data.cycles, day))}
                >
                  <DayHead
                    data={data}
                    day={day}
                    brief={compact}
                    onSeats={new Set(rows.filter((row) => row.byDate.has(day)).map((row) => row.id))}
                  />
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 && (
            <tr>
              <td colSpan={days.length + 1}>
                {shortOnly ? 'Nothing is short in this period.' : 'No assignments in this period.'}
              </td>
            </tr>
          )}
          {rows.map((row) => (
            <tr key={row.id}>
              <th scope="row">{row.name}</th>
              {days.map((day) => {
                const assignment = row.byDate.get(day);
                if (!assignment) return <td key={day} class="empty" />;
                return (
                  <td key={day} class={isShort(assignment) ? 'short' : undefined}>
                    <Post
                      assignment={assignment}
                      date={day}
                      compact={compact}
                      act={act}
                      named={false}
                      calls={seatCallbacks(data, day, assignment.id)}
                    />
                  </td>
                );
              })}
            </tr>
          ))}
          <tr class="time-off-row">
            <th scope="row">Time off</th>
            {days.map((day) => (
              <td key={day}>
                <TimeOffList entries={byDate.get(day)?.time_off ?? []} compact={compact} />
              </td>
            ))}
          </tr>
        </tbody>
      </table>
    </section>
  );
}

const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

/** The month as a calendar: seven columns, Monday first, a cell per day with its posts. */
function Calendar({ data, days, shortOnly, act }: { data: BoardData; days: string[]; shortOnly: boolean; act?: Act }) {
  const byDate = new Map(data.schedule.days.map((day) => [day.date, day]));
  const lead = (parseDate(days[0]).getUTCDay() + 6) % 7;
  const current = today();
  return (
    <div class="calendar-box">
      <div class="calendar-head" aria-hidden="true">
        {WEEKDAYS.map((name) => (
          <span key={name}>{name.slice(0, 3)}</span>
        ))}
      </div>
      <ol class={`calendar weeks-${Math.ceil((lead + days.length) / 7)}`}>
        {Array.from({ length: lead }, (_, i) => (
          <li key={`pad${i}`} class="pad" aria-hidden="true" />
        ))}
        {days.map((day) => {
          const entry = byDate.get(day);
          const cycles = cyclesOf(data.cycles, day);
          const posts = (entry?.assignments ?? []).filter(shown).filter((a) => !shortOnly || isShort(a));
          const off = entry?.time_off ?? [];
          return (
            <li
              key={day}
              class={`day${day === current ? ' today' : ''}${rollUp(entry).short ? ' short' : ''}`}
              data-date={day}
              {...cycleStyle(cycles)}
            >
              <h2 class="day-head">
                <span class="visually-hidden">{longDate(day)}</span>
                <span aria-hidden="true" class="date">
                  {parseDate(day).getUTCDate()}
                </span>
                <CycleBadge cycles={cycles} />
                {data.labels.days[day] && (
                  <span
                    class="day-label"
                    style={{ background: data.labels.days[day].color, color: readableOn(data.labels.days[day].color) }}
                  >
                    {data.labels.days[day].label}
                  </span>
                )}
                <RollUp day={entry} />
              </h2>
              <DayExtras data={data} day={day} onSeats={new Set(posts.map((a) => a.id))} />
              {posts.map((assignment) => (
                <Post
                  key={assignment.id}
                  assignment={assignment}
                  date={day}
                  compact
                  act={act}
                  named
                  calls={seatCallbacks(data, day, assignment.id)}
                />
              ))}
              {!shortOnly && off.length > 0 && (
                <div class="post time-off">
                  <h3 class="post-name">Time off</h3>
                  <TimeOffList entries={off} compact />
                </div>
              )}
            </li>
          );
        })}
      </ol>
    </div>
  );
}

function Legend() {
  return (
    <p class="legend">
      <span>↻ rotation</span> <span>★ one-off shift</span> <span>n of m: people on duty of seats to fill</span>
      <span class="legend-short">⚠ open seats or a qualifier short</span>
      <span>coloured top border and badge: the day's visual cycle (the platoon on duty)</span>
    </p>
  );
}

const TITLES: Record<BoardMode, string> = { month: 'Month', week: 'Week', roster: 'Roster', agenda: 'Agenda' };

function rangeOf(mode: BoardMode, anchor: string): { start: string; end: string } {
  if (mode === 'week') return weekRange(anchor);
  if (mode === 'agenda') return { start: anchor, end: addDays(anchor, AGENDA_DAYS - 1) };
  return monthRange(anchor);
}

export function Board({
  mode,
  anchor,
  navigate,
  session,
}: {
  mode: BoardMode;
  anchor: string;
  navigate: (hash: string) => void;
  session: Session;
}) {
  const range = rangeOf(mode, anchor);
  const admin = session.user.is_admin;
  const [value, reload] = useLoad(() => loadBoard(range.start, range.end, admin), [range.start, range.end]);
  const [shortOnly, setShortOnly] = useState(false);
  const [panel, setPanel] = useState<PanelTarget | null>(null);
  useEffect(() => setPanel(null), [range.start, mode]);
  const step = (direction: number) =>
    mode === 'week'
      ? addDays(range.start, 7 * direction)
      : mode === 'agenda'
        ? addDays(range.start, AGENDA_DAYS * direction)
        : addMonths(anchor, direction);
  const unit = mode === 'week' ? 'week' : mode === 'agenda' ? 'days' : 'month';
  const title =
    mode === 'week'
      ? `Week of ${monthName(range.start).split(' ')[0]} ${parseDate(range.start).getUTCDate()}`
      : mode === 'agenda'
        ? range.start === today()
          ? 'Agenda: today and the next days'
          : `Agenda from ${longDate(range.start)}`
        : monthName(range.start);
  const act: Act | undefined = session.user.is_admin ? { open: setPanel } : undefined;
  const days = daysBetween(range.start, range.end);
  return (
    <section aria-labelledby="board-title" class={panel ? 'with-panel' : undefined}>
      <div class="toolbar">
        <h1 id="board-title" tabIndex={-1}>
          {title}
        </h1>
        <div class="buttons no-print">
          <button type="button" onClick={() => navigate(`#/${mode}/${step(-1)}`)}>
            <span aria-hidden="true">‹ </span>Previous {unit}
          </button>
          <button type="button" onClick={() => navigate(`#/${mode}/${today()}`)}>
            Today
          </button>
          <button type="button" onClick={() => navigate(`#/${mode}/${step(1)}`)}>
            Next {unit}
            <span aria-hidden="true"> ›</span>
          </button>
          {(['agenda', 'month', 'week', 'roster'] as const)
            .filter((other) => other !== mode)
            .map((other) => (
              <button key={other} type="button" onClick={() => navigate(`#/${other}/${anchor}`)}>
                {TITLES[other]} view
              </button>
            ))}
          {mode !== 'agenda' && (
            <label class="toggle">
              <input
                type="checkbox"
                checked={shortOnly}
                onChange={(event) => setShortOnly((event.target as HTMLInputElement).checked)}
              />{' '}
              Short only
            </label>
          )}
          {mode === 'month' && (
            <button type="button" onClick={() => window.print()}>
              Print
            </button>
          )}
        </div>
      </div>
      {mode !== 'agenda' && <Legend />}
      <Loaded value={value} what="the schedule" retry={reload}>
        {(data) => (
          <>
            {mode !== 'agenda' && <CycleLegend cycles={data.cycles} />}
            {mode === 'agenda' ? (
              <Agenda data={data} days={days} session={session} act={act} />
            ) : mode === 'month' ? (
              <Calendar data={data} days={days} shortOnly={shortOnly} act={act} />
            ) : (
              <BoardTable data={data} days={days} mode={mode} shortOnly={shortOnly} act={act} />
            )}
            {panel && act && (
              <SidePanel
                target={panel}
                data={data}
                session={session}
                onChanged={reload}
                onOpen={setPanel}
                onClose={() => setPanel(null)}
              />
            )}
          </>
        )}
      </Loaded>
    </section>
  );
}
