import type { ComponentChildren } from 'preact';
import { Chip } from '../../components';
import { span, timeOf } from '../../dates';
import type { AssignmentDay, DayTimeOff, ScheduleDay, Shift } from '../../types';
import type { Act } from './model';
import { TypeName } from './TypeName';

/** Chip colours for a qualifier that has none. */
const NEUTRAL = { color: '#E5E7EB', text: '#111111' };

export type KellyDay = NonNullable<ScheduleDay['kelly_days']>[number];
export type DayTrade = ScheduleDay['trades'][number];

/** The trade a shift is worked under: the shift's person took it over from the trade's requester, in its hours. */
export const tradeOf = (shift: Shift, trades: DayTrade[]) =>
  trades.find((t) => t.accepting_user.id === shift.user.id && t.start < shift.end && t.end > shift.start);

/** Who is off on an assignment's seats that day: time off that takes them (`seats`), Kelly days, traded away. */
export interface SeatAbsences {
  timeOff: DayTimeOff[];
  kellyDays: KellyDay[];
  /** trades whose worker sits on this assignment: the requester is off and owes the hours */
  traded: DayTrade[];
}

/** The absences on one assignment's seats, from the day as GET /schedule gives it. */
export function absencesOn(day: ScheduleDay | undefined, assignment: AssignmentDay): SeatAbsences {
  return {
    timeOff: (day?.time_off ?? []).filter((t) => t.seats?.some((s) => s.assignment_id === assignment.id)),
    kellyDays: (day?.kelly_days ?? []).filter((k) => k.assignment_id === assignment.id),
    traded: (day?.trades ?? []).filter((t) => assignment.shifts.some((s) => tradeOf(s, [t]))),
  };
}

export function SeatOfShift({
  shift,
  assignment,
  trade,
  date,
  act,
  onSick,
  busy,
}: {
  shift: Shift;
  assignment: AssignmentDay;
  trade: DayTrade | undefined;
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
        {trade && (
          <span class="badge-text" data-trade={trade.id}>
            trade: works for {trade.requesting_user.name}
          </span>
        )}
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

/** One line of a person who is off on the seat: their name struck through and why. */
function OffSeat({
  kind,
  userId,
  name,
  children,
}: {
  kind: string;
  userId: number;
  name: string;
  children: ComponentChildren;
}) {
  return (
    <li class="seat off" data-seat={kind} data-user={userId}>
      <span class="seat-who">
        {name}
        <span class="visually-hidden">: off</span>
      </span>
      <span class="seat-badges">
        <span class="badge-text">{children}</span>
      </span>
    </li>
  );
}

/** The people off on an assignment's seats: on leave (the type as the API shows it), on a Kelly day, traded away. */
export function OffSeats({ absences, assignmentId }: { absences: SeatAbsences; assignmentId: number }) {
  return (
    <>
      {absences.timeOff.map((entry) => (
        <OffSeat key={`t${entry.id}`} kind="absent" userId={entry.user.id} name={entry.user.name}>
          <span data-time-off={entry.id}>
            <TypeName type={entry.time_off_type} />
          </span>
          {(entry.seats ?? []).filter((s) => s.assignment_id === assignmentId).map((s) => ` · ${span(s.start, s.end)}`)}
        </OffSeat>
      ))}
      {absences.kellyDays.map((kelly) => (
        <OffSeat key={`k${kelly.user.id}`} kind="kelly" userId={kelly.user.id} name={kelly.user.name}>
          {kelly.name}
        </OffSeat>
      ))}
      {absences.traded.map((trade) => (
        <OffSeat key={`x${trade.id}`} kind="traded" userId={trade.requesting_user.id} name={trade.requesting_user.name}>
          traded: worked by {trade.accepting_user.name}, owes {span(trade.start, trade.end)}
        </OffSeat>
      ))}
    </>
  );
}
