import { useRef } from 'preact/hooks';
import { today } from '../../dates';
import { DayHead } from './DayParts';
import {
  type Act,
  assignmentRows,
  type BoardData,
  type BoardMode,
  cycleStyle,
  cyclesOf,
  isShort,
  seatCallbacks,
} from './model';
import { Post, TimeOffList } from './Post';
import { useRovingTabindex } from './roving';

/** Week and roster: one row per assignment, one column per day. */
export function BoardTable({
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
  const grid = useRef<HTMLTableSectionElement>(null);
  useRovingTabindex(grid, ':scope > tr > td', days.length);
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
                  aria-current={day === current ? 'date' : undefined}
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
        <tbody ref={grid}>
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
