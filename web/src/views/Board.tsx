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
import { SidePanel } from './panel/SidePanel';

export type { BoardMode } from './board/model';

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
