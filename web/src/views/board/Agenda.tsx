import type { Session } from '../../api';
import { Chip } from '../../components';
import { longDate, span, today } from '../../dates';
import type { AssignmentDay, Shift } from '../../types';
import { type Act, type BoardData, isShort, noteText, rollUp } from './model';

type Placed = { shift: Shift; assignment: AssignmentDay };

/**
 * Who is the signed-in user's team: the groups (platoons, crews) their shifts in view carry. On a
 * day, the team is everyone on an occurrence the user works, and everyone whose shift carries one
 * of those groups.
 */
function teamGroups(data: BoardData, me: number): Set<number> {
  const groups = new Set<number>();
  for (const day of data.schedule.days)
    for (const assignment of day.assignments)
      for (const shift of assignment.shifts) if (shift.user.id === me) for (const g of shift.groups) groups.add(g.id);
  return groups;
}

function PersonLine({ placed, date, act }: { placed: Placed; date: string; act?: Act }) {
  const { shift, assignment } = placed;
  const chip = (
    <Chip color={shift.work_type.color} textColor={shift.work_type.text_color}>
      {shift.user.name}
    </Chip>
  );
  return (
    <li>
      {act ? (
        <button
          type="button"
          class="person"
          onClick={() =>
            act.open({ kind: 'person', shift, assignment: { id: assignment.id, name: assignment.name }, date })
          }
        >
          {chip}
        </button>
      ) : (
        chip
      )}{' '}
      <span class="hours">{span(shift.start, shift.end)}</span>
    </li>
  );
}

/** The phone's view: a list of days from the first one, each with my shifts, my team and what is short. */
export function Agenda({ data, days, session, act }: { data: BoardData; days: string[]; session: Session; act?: Act }) {
  const me = session.user.id;
  const groups = teamGroups(data, me);
  const current = today();
  return (
    <ol class="agenda">
      {days.map((date) => {
        const day = data.schedule.days.find((d) => d.date === date);
        const placed: Placed[] = (day?.assignments ?? []).flatMap((assignment) =>
          assignment.shifts.map((shift) => ({ shift, assignment })),
        );
        const mine = placed.filter((p) => p.shift.user.id === me);
        const myPosts = new Set(mine.map((p) => p.assignment.id));
        const team = placed.filter(
          (p) =>
            p.shift.user.id !== me && (myPosts.has(p.assignment.id) || p.shift.groups.some((g) => groups.has(g.id))),
        );
        const byPost = new Map<number, Placed[]>();
        for (const p of team) byPost.set(p.assignment.id, [...(byPost.get(p.assignment.id) ?? []), p]);
        const myTimeOff = (day?.time_off ?? []).filter((t) => t.user.id === me);
        const short = (day?.assignments ?? []).filter(isShort);
        const { onDuty, minimum, open } = rollUp(day);
        const notes = day?.notes ?? [];
        return (
          <li
            key={date}
            class={`agenda-day${date === current ? ' today' : ''}`}
            data-date={date}
            aria-current={date === current ? 'date' : undefined}
          >
            <h2 class="agenda-date">
              {date === current && <span class="today-mark">Today · </span>}
              {longDate(date)}
            </h2>
            {minimum > 0 && (
              <p class={`rollup${short.length ? ' short' : ''}`}>
                {onDuty} of {minimum} on duty{open > 0 && ` · ${open} open`}
              </p>
            )}
            <h3>My shifts</h3>
            {mine.length === 0 && myTimeOff.length === 0 && <p class="muted">Off duty.</p>}
            <ul class="agenda-list">
              {mine.map((p) => (
                <li key={p.shift.id}>
                  <Chip color={p.shift.work_type.color} textColor={p.shift.work_type.text_color}>
                    {p.shift.work_type.name}
                  </Chip>{' '}
                  {p.assignment.name}, {span(p.shift.start, p.shift.end)}
                </li>
              ))}
              {myTimeOff.map((t) => (
                <li key={`t${t.id}`}>
                  <Chip color={t.time_off_type.color} textColor={t.time_off_type.text_color}>
                    {t.time_off_type.name}
                  </Chip>{' '}
                  time off, {span(t.start, t.end)}
                </li>
              ))}
            </ul>
            {byPost.size > 0 && (
              <>
                <h3>My team</h3>
                {[...byPost.values()].map((people) => (
                  <div key={people[0].assignment.id} class="agenda-post">
                    <p class="post-title">{people[0].assignment.name}</p>
                    <ul class="agenda-list">
                      {people.map((p) => (
                        <PersonLine key={p.shift.id} placed={p} date={date} act={act} />
                      ))}
                    </ul>
                  </div>
                ))}
              </>
            )}
            {short.length > 0 && (
              <>
                <h3>Short</h3>
                <ul class="agenda-list">
                  {short.map((a) => {
                    const text = `${a.name}: ${a.staffing.open > 0 ? `${a.staffing.open} open` : 'qualifier short'}`;
                    return (
                      <li key={a.id}>
                        {act ? (
                          <button
                            type="button"
                            class="open-seat"
                            data-assignment={a.id}
                            data-date={date}
                            onClick={() => act.open({ kind: 'seat', assignmentId: a.id, date })}
                          >
                            {text}
                          </button>
                        ) : (
                          <span class="open-seat">{text}</span>
                        )}
                      </li>
                    );
                  })}
                </ul>
              </>
            )}
            {notes.length > 0 && (
              <ul class="day-notes" aria-label="Notes">
                {notes.map((note, i) => (
                  <li key={i}>{noteText(note)}</li>
                ))}
              </ul>
            )}
          </li>
        );
      })}
    </ol>
  );
}
