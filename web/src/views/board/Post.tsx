import { Chip } from '../../components';
import { longDate, span, timeOf } from '../../dates';
import type { AssignmentDay, Callback, DayTimeOff, ScheduleDay, Shift } from '../../types';
import { TypeName } from './TypeName';
import { type Act, initials, isShort, rollUp, shortfalls } from './model';

/** Chip colours for a qualifier that has none. */
const NEUTRAL = { color: '#E5E7EB', text: '#111111' };

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

export function CallbackLine({ callback }: { callback: Callback }) {
  return (
    <>
      Callback #{callback.id} {callback.title.name}: {callback.positions_to_fill} to fill,{' '}
      {span(callback.start, callback.end)}
    </>
  );
}

/** One assignment of one day: its staffing, its crew, its open seats and the callbacks filling them. */
export function Post({
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

export function RollUp({ day, brief }: { day: ScheduleDay | undefined; brief?: boolean }) {
  const { onDuty, minimum, open, short } = rollUp(day);
  if (minimum === 0) return null;
  return (
    <span class={`rollup${short ? ' short' : ''}`} title={`${onDuty} on duty of ${minimum} seats, ${open} open`}>
      {brief ? `${onDuty}/${minimum}` : `${onDuty} of ${minimum} on duty`}
      {open > 0 && <> · {open} open</>}
    </span>
  );
}

export function TimeOffList({ entries, compact }: { entries: DayTimeOff[]; compact: boolean }) {
  return (
    <ul class="shifts">
      {entries.map((entry) => (
        <li
          key={`${entry.id}-${entry.start}`}
          title={`${entry.user.name}: ${entry.time_off_type.name} ${span(entry.start, entry.end)}`}
        >
          <Chip color={entry.time_off_type.color} textColor={entry.time_off_type.text_color}>
            <TypeName type={entry.time_off_type} short /> {compact ? initials(entry.user.name) : entry.user.name}
          </Chip>
        </li>
      ))}
    </ul>
  );
}
