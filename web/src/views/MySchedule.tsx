import { call, client, type Session } from '../api';
import { Chip, Loaded } from '../components';
import { addDays, longDate, span, today } from '../dates';
import { useLoad } from '../hooks';
import { useChangeCount } from '../live';

const DAYS_AHEAD = 28;

export function MySchedule({ session }: { session: Session }) {
  const start = today();
  const end = addDays(start, DAYS_AHEAD - 1);
  const [changes] = useChangeCount();
  const [value, reload] = useLoad(
    () =>
      call(client.GET('/v1/schedule', { params: { query: { start: `${start} 00:00:00`, end: `${end} 23:59:59` } } })),
    [start],
    changes,
  );
  const mine = (id: number | string) => Number(id) === session.user.id;
  return (
    <section aria-labelledby="mine-title">
      <h1 id="mine-title">My schedule, next four weeks</h1>
      <Loaded value={value} what="your schedule" retry={reload}>
        {(schedule) => {
          const days = schedule.days
            .map((day) => ({
              date: day.date,
              shifts: day.assignments.flatMap((a) =>
                a.shifts.filter((s) => mine(s.user.id)).map((s) => ({ ...s, assignment: a.name })),
              ),
              timeOff: day.time_off.filter((t) => mine(t.user.id)),
            }))
            .filter((day) => day.shifts.length > 0 || day.timeOff.length > 0);
          if (days.length === 0) return <p>Nothing scheduled for you in the next four weeks.</p>;
          return (
            <ul class="cards">
              {days.map((day) => (
                <li class="card" key={day.date}>
                  <p class="card-title">{longDate(day.date)}</p>
                  {day.shifts.map((shift) => (
                    <p key={shift.id}>
                      <Chip color={shift.work_type.color} textColor={shift.work_type.text_color}>
                        {shift.work_type.name}
                      </Chip>{' '}
                      {shift.assignment}, {span(shift.start, shift.end)} {shift.recurring ? '(rotation)' : '(one-off)'}
                    </p>
                  ))}
                  {day.timeOff.map((entry) => (
                    <p key={`t${entry.id}`}>
                      <Chip color={entry.time_off_type.color} textColor={entry.time_off_type.text_color}>
                        {entry.time_off_type.name}
                      </Chip>{' '}
                      time off, {span(entry.start, entry.end)}
                    </p>
                  ))}
                </li>
              ))}
            </ul>
          );
        }}
      </Loaded>
    </section>
  );
}
