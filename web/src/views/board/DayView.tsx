import { useRef } from 'preact/hooks';
import type { Session } from '../../api';
import { span, today } from '../../dates';
import type { AssignmentDay, ScheduleDay, Shift, Vacancy } from '../../types';
import { Outcome, useAction } from '../panel/action';
import { markSick } from '../panel/sick';
import { type Act, type BoardData, rollUp, shown } from './model';
import { TypeName } from './TypeName';
import { GroupShortfalls } from './DayParts';
import { useRovingTabindex } from './roving';
import { absencesOn, OffSeats, SeatOfShift, tradeOf } from './Seats';

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

function Apparatus({
  assignment,
  vacancy,
  day,
  date,
  act,
  onSick,
  busy,
}: {
  assignment: AssignmentDay;
  vacancy: Vacancy | undefined;
  day: ScheduleDay | undefined;
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
            trade={tradeOf(shift, day?.trades ?? [])}
            date={date}
            act={act}
            onSick={onSick && ((s) => onSick(s, assignment))}
            busy={busy}
          />
        ))}
        <OffSeats absences={absencesOn(day, assignment)} assignmentId={assignment.id} />
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
  // time off that takes no seat shown here (office staff, a seat of an assignment not shown)
  const onSeats = new Set(assignments.map((a) => a.id));
  const offElsewhere = (day?.time_off ?? []).filter((t) => !t.seats?.some((s) => onSeats.has(s.assignment_id)));
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
            day={day}
            date={date}
            act={act}
            onSick={onSick}
            busy={action.busy}
          />
        ))}
      </div>
      {offElsewhere.length > 0 && (
        <section aria-labelledby="day-off-title" class="day-off">
          <h2 id="day-off-title">Also off today</h2>
          <ul>
            {offElsewhere.map((entry) => (
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
