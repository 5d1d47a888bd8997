import { useRef } from 'preact/hooks';
import type { Session } from '../../api';
import { Chip } from '../../components';
import { span, timeOf, today } from '../../dates';
import type { AssignmentDay, ScheduleDay, Shift, Vacancy } from '../../types';
import { Outcome, useAction } from '../panel/action';
import { markSick } from '../panel/sick';
import { type Act, type BoardData, rollUp, shown } from './model';
import { TypeName } from './TypeName';
import { GroupShortfalls } from './DayParts';
import { useRovingTabindex } from './roving';

/** Chip colours for a qualifier that has none. */
const NEUTRAL = { color: '#E5E7EB', text: '#111111' };

type KellyDay = NonNullable<ScheduleDay['kelly_days']>[number];

/** Why a seat is open, from the engine's staffing: "needs a PM" when a qualifier is short. */
function openReasons(assignment: AssignmentDay): string[] {
  const { staffing } = assignment;
  const reasons = staffing.qualifier_shortfalls.map(
    (q) => `needs ${q.needed - q.have === 1 ? 'a' : q.needed - q.have} ${q.shortcode ?? `qualifier #${q.id}`}`,
  );
  if (staffing.short_from && staffing.short_until && staffing.short_from !== assignment.start)
    reasons.push(`short ${span(staffing.short_from, staffing.short_until)}`);
  else if (staffing.short_until && staffing.short_until !== assignment.end)
    reasons.push(`short ${span(staffing.short_from ?? assignment.start, staffing.short_until)}`);
  return reasons;
}

function SeatOfShift({
  shift,
  assignment,
  date,
  act,
  onSick,
  busy,
}: {
  shift: Shift;
  assignment: AssignmentDay;
  date: string;
  act?: Act;
  onSick?: (shift: Shift) => void;
  busy: boolean;
}) {
  return (
    <li class="seat filled" data-seat="person" data-user={shift.user.id}>
      <span class="seat-who">
        {act ? (
          <button
            type="button"
            class="link"
            onClick={() =>
              act.open({ kind: 'person', shift, assignment: { id: assignment.id, name: assignment.name }, date })
            }
          >
            {shift.user.name}
          </button>
        ) : (
          shift.user.name
        )}
      </span>
      <span class="seat-badges">
        {shift.qualifiers.map((q) => (
          <Chip
            key={q.id}
            color={q.color ?? NEUTRAL.color}
            textColor={q.text_color ?? NEUTRAL.text}
            class="badge"
            title={q.name}
          >
            {q.shortcode ?? q.name}
          </Chip>
        ))}
        {shift.hold_over > 0 && <span class="badge-text">held over</span>}
        {!shift.recurring && <span class="badge-text">one-off</span>}
      </span>
      <span class="seat-time">
        {timeOf(shift.start)}–{timeOf(shift.end)} · {shift.work_type.name}
      </span>
      {onSick && (
        <button
          type="button"
          aria-disabled={busy}
          onClick={() => onSick(shift)}
          aria-label={`Mark ${shift.user.name} sick`}
        >
          Mark sick
        </button>
      )}
    </li>
  );
}

function Apparatus({
  assignment,
  vacancy,
  kellyDays,
  date,
  act,
  onSick,
  busy,
}: {
  assignment: AssignmentDay;
  vacancy: Vacancy | undefined;
  kellyDays: KellyDay[];
  date: string;
  act?: Act;
  onSick?: (shift: Shift, assignment: AssignmentDay) => void;
  busy: boolean;
}) {
  const { staffing } = assignment;
  const open = vacancy?.open ?? staffing.open;
  const reasons = openReasons(assignment);
  const titleId = `apparatus-${assignment.id}`;
  return (
    <section
      class={`apparatus${open > 0 || staffing.qualifier_shortfalls.length > 0 ? ' short' : ''}`}
      aria-labelledby={titleId}
      data-assignment={assignment.id}
    >
      <h2 id={titleId}>{assignment.name}</h2>
      <p class="apparatus-staffing">
        {span(assignment.start, assignment.end)} · {staffing.scheduled} of {staffing.needed} on duty
        {open > 0 && <strong> · {open} open</strong>}
        {assignment.qualifiers_needed.length > 0 &&
          ` · needs ${assignment.qualifiers_needed.map((q) => `${q.minimum_staffing} ${q.shortcode ?? q.name}`).join(', ')}`}
      </p>
      <ul class="seats">
        {assignment.shifts.map((shift) => (
          <SeatOfShift
            key={`${shift.recurring ? 'r' : 's'}${shift.id}-${shift.start}`}
            shift={shift}
            assignment={assignment}
            date={date}
            act={act}
            onSick={onSick && ((s) => onSick(s, assignment))}
            busy={busy}
          />
        ))}
        {kellyDays.map((kelly) => (
          <li key={`k${kelly.user.id}`} class="seat off" data-seat="off">
            <span class="seat-who">{kelly.user.name}</span>
            <span class="seat-badges">
              <span class="badge-text">Off · {kelly.name}</span>
            </span>
          </li>
        ))}
        {Array.from({ length: open }, (_, i) => (
          <li key={`open${i}`} class="seat open" data-seat="open">
            <span class="seat-who">Open seat</span>
            <span class="seat-badges">
              {reasons.length > 0 && <span class="badge-text">{reasons.join(' · ')}</span>}
            </span>
            {act && (
              <button
                type="button"
                class="primary"
                onClick={() => act.open({ kind: 'seat', assignmentId: assignment.id, date })}
                aria-label={`Fill the open seat on ${assignment.name}`}
              >
                Fill
              </button>
            )}
          </li>
        ))}
        {open === 0 && staffing.qualifier_shortfalls.length > 0 && (
          <li class="seat open" data-seat="qualifier">
            <span class="seat-who">{reasons.join(' · ')}</span>
            {act && (
              <button
                type="button"
                onClick={() => act.open({ kind: 'seat', assignmentId: assignment.id, date })}
                aria-label={`Find a qualified person for ${assignment.name}`}
              >
                Find
              </button>
            )}
          </li>
        )}
      </ul>
    </section>
  );
}

/**
 * One day by apparatus and seat (the admin's default): each assignment with who sits there, their
 * qualifier badges, Kelly days on the seat, open seats and why, and the totals, all as GET
 * /schedule and GET /vacancies say (nothing of staffing is worked out here).
 */
export function DayView({
  data,
  date,
  session,
  act,
  onChanged,
}: {
  data: BoardData;
  date: string;
  session: Session;
  act?: Act;
  onChanged: () => void;
}) {
  const day = data.schedule.days.find((d) => d.date === date);
  const action = useAction();
  const grid = useRef<HTMLDivElement>(null);
  useRovingTabindex(grid, ':scope > section');
  const assignments = (day?.assignments ?? []).filter(shown);
  const { onDuty, minimum, open } = rollUp(day);
  const vacancies = data.vacancies.filter((v) => v.date === date);
  const onSick = act
    ? (shift: Shift, assignment: AssignmentDay) =>
        action.run(async () => {
          const label = await markSick(shift, session.user.id);
          onChanged();
          act.open({ kind: 'seat', assignmentId: assignment.id, date });
          return `${shift.user.name} marked sick (${label}); the seat on ${assignment.name} is open.`;
        })
    : undefined;
  return (
    <div class="day-view" data-date={date} aria-current={date === today() ? 'date' : undefined}>
      <p class="day-totals" data-open={open}>
        {onDuty} of {minimum} on duty · <strong>{open} open</strong>
        {vacancies.length > 0 && ` · short: ${vacancies.map((v) => v.assignment.name).join(', ')}`}
      </p>
      <GroupShortfalls day={day} />
      <Outcome done={action.done} error={action.error} />
      {assignments.length === 0 && <p>No assignment works this day.</p>}
      <div class="apparatus-list" ref={grid}>
        {assignments.map((assignment) => (
          <Apparatus
            key={assignment.id}
            assignment={assignment}
            vacancy={vacancies.find((v) => v.assignment.id === assignment.id)}
            kellyDays={(day?.kelly_days ?? []).filter((k) => k.assignment_id === assignment.id)}
            date={date}
            act={act}
            onSick={onSick}
            busy={action.busy}
          />
        ))}
      </div>
      {(day?.time_off ?? []).length > 0 && (
        <section aria-labelledby="day-off-title" class="day-off">
          <h2 id="day-off-title">Off today</h2>
          <ul>
            {(day?.time_off ?? []).map((entry) => (
              <li key={`${entry.id}-${entry.start}`} data-seat="time-off">
                {entry.user.name}: <TypeName type={entry.time_off_type} /> ({span(entry.start, entry.end)})
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}
