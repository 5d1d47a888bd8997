import { useRef } from 'preact/hooks';
import { readableOn } from '../../components';
import { longDate, parseDate, today } from '../../dates';
import { CycleBadge, DayExtras, GroupShortfalls } from './DayParts';
import { type Act, type BoardData, cycleStyle, cyclesOf, isShort, rollUp, seatCallbacks, shown } from './model';
import { Post, RollUp, TimeOffList } from './Post';
import { useRovingTabindex } from './roving';

const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

/** The month as a calendar: seven columns, Monday first, a cell per day with its posts. */
export function Calendar({
  data,
  days,
  shortOnly,
  act,
}: {
  data: BoardData;
  days: string[];
  shortOnly: boolean;
  act?: Act;
}) {
  const byDate = new Map(data.schedule.days.map((day) => [day.date, day]));
  const lead = (parseDate(days[0]).getUTCDay() + 6) % 7;
  const current = today();
  const grid = useRef<HTMLOListElement>(null);
  useRovingTabindex(grid, ':scope > li', 7);
  return (
    // a member's month has no buttons: at phone width the box scrolls sideways, so it takes the focus itself
    // biome-ignore lint/a11y/noNoninteractiveTabindex: keyboard users focus the region to scroll it
    <section class="calendar-box" aria-label="month calendar" tabIndex={act ? undefined : 0}>
      <div class="calendar-head" aria-hidden="true">
        {WEEKDAYS.map((name) => (
          <span key={name}>{name.slice(0, 3)}</span>
        ))}
      </div>
      <ol ref={grid} class={`calendar weeks-${Math.ceil((lead + days.length) / 7)}`}>
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
              aria-current={day === current ? 'date' : undefined}
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
              <GroupShortfalls day={entry} />
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
    </section>
  );
}
