import { useEffect, useState } from 'preact/hooks';
import type { Session } from '../api';
import { Loaded } from '../components';
import {
  addDays,
  addMonths,
  daysBetween,
  longDate,
  monthName,
  monthRange,
  parseDate,
  today,
  weekRange,
} from '../dates';
import { useLoad } from '../hooks';
import { Agenda } from './board/Agenda';
import { BoardTable } from './board/BoardTable';
import { Calendar } from './board/Calendar';
import { CycleLegend, Legend } from './board/DayParts';
import { AGENDA_DAYS, type Act, type BoardMode, loadBoard, type PanelTarget } from './board/model';
import { DayView } from './board/DayView';
import { scrollToToday, useScrollToToday } from './board/today';
import { SidePanel } from './panel/SidePanel';
import { useChangeCount } from '../live';

export type { BoardMode } from './board/model';

const TITLES: Record<BoardMode, string> = {
  day: 'Day',
  month: 'Month',
  week: 'Week',
  roster: 'Roster',
  agenda: 'Agenda',
};

function rangeOf(mode: BoardMode, anchor: string): { start: string; end: string } {
  if (mode === 'week') return weekRange(anchor);
  if (mode === 'agenda') return { start: anchor, end: addDays(anchor, AGENDA_DAYS - 1) };
  if (mode === 'day') return { start: anchor, end: anchor };
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
  // read again whenever anything of the organization changes (GET /v1/changes), and after one's own actions
  const [changes, changed] = useChangeCount();
  const [value, reload] = useLoad(
    () => loadBoard(range.start, range.end, admin, mode === 'day'),
    [range.start, range.end],
    changes,
  );
  useScrollToToday(`${mode}/${range.start}`, value.state === 'ready');
  const [shortOnly, setShortOnly] = useState(false);
  const [panel, setPanel] = useState<PanelTarget | null>(null);
  useEffect(() => setPanel(null), [range.start, mode]);
  const step = (direction: number) =>
    mode === 'day'
      ? addDays(anchor, direction)
      : mode === 'week'
        ? addDays(range.start, 7 * direction)
        : mode === 'agenda'
          ? addDays(range.start, AGENDA_DAYS * direction)
          : addMonths(anchor, direction);
  const unit = mode === 'day' ? 'day' : mode === 'week' ? 'week' : mode === 'agenda' ? 'days' : 'month';
  const title =
    mode === 'day'
      ? `${anchor === today() ? 'Today, ' : ''}${longDate(anchor)}`
      : mode === 'week'
        ? `Week of ${monthName(range.start).split(' ')[0]} ${parseDate(range.start).getUTCDate()}`
        : mode === 'agenda'
          ? range.start === today()
            ? 'Agenda: today and the next days'
            : `Agenda from ${longDate(range.start)}`
          : monthName(range.start);
  // "Today": the period that holds the organization's today, scrolled to it (already shown: scrolled at once)
  const goToday = () => {
    const current = today();
    if (current >= range.start && current <= range.end && (mode !== 'day' || anchor === current)) scrollToToday();
    else navigate(`#/${mode}/${current}`);
  };
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
          <button type="button" onClick={goToday}>
            Today
          </button>
          <button type="button" onClick={() => navigate(`#/${mode}/${step(1)}`)}>
            Next {unit}
            <span aria-hidden="true"> ›</span>
          </button>
          {(['day', 'agenda', 'month', 'week', 'roster'] as const)
            .filter((other) => other !== mode)
            .map((other) => (
              <button key={other} type="button" onClick={() => navigate(`#/${other}/${anchor}`)}>
                {TITLES[other]} view
              </button>
            ))}
          {mode !== 'agenda' && mode !== 'day' && (
            <label class="toggle">
              <input
                type="checkbox"
                checked={shortOnly}
                onChange={(event) => setShortOnly((event.target as HTMLInputElement).checked)}
              />{' '}
              Short only
            </label>
          )}
          {(mode === 'month' || mode === 'day') && (
            <button type="button" onClick={() => window.print()}>
              Print
            </button>
          )}
        </div>
      </div>
      {mode !== 'agenda' && mode !== 'day' && <Legend />}
      <Loaded value={value} what="the schedule" retry={reload}>
        {(data) => (
          <>
            {mode !== 'agenda' && <CycleLegend cycles={data.cycles} />}
            {mode === 'day' ? (
              <DayView data={data} date={anchor} session={session} act={act} onChanged={changed} />
            ) : mode === 'agenda' ? (
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
                onChanged={changed}
                refresh={changes}
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
