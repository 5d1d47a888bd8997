import { useEffect, useRef } from 'preact/hooks';
import type { Session } from '../../api';
import { longDate } from '../../dates';
import type { BoardData, PanelTarget } from '../board/model';
import { PersonPanel } from './PersonPanel';
import { SeatPanel } from './SeatPanel';

/** The board's side panel (admins): details of a seat or a person and what can be done there. */
export function SidePanel({
  target,
  data,
  session,
  onChanged,
  onOpen,
  onClose,
  refresh,
}: {
  target: PanelTarget;
  /** grows with every change heard: the panel reads again */
  refresh: number;
  data: BoardData;
  session: Session;
  onChanged: () => void;
  onOpen: (target: PanelTarget) => void;
  onClose: () => void;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  // on close, keyboard users continue where they opened the panel (or at the board's title)
  useEffect(() => {
    const opener = document.activeElement as HTMLElement | null;
    return () => (opener?.isConnected ? opener : document.getElementById('board-title'))?.focus?.();
  }, []);
  useEffect(() => heading.current?.focus(), [target]);
  // an action can remove the focused control (a filled seat's candidates): focus then continues at
  // the panel's heading rather than falling out of the panel to the page
  const aside = useRef<HTMLElement>(null);
  useEffect(() => {
    const panel = aside.current;
    if (!panel) return;
    let inside = false;
    const track = () => {
      inside = panel.contains(document.activeElement);
    };
    const observer = new MutationObserver(() => {
      const lost = !document.activeElement || document.activeElement === document.body;
      if (inside && lost) heading.current?.focus();
    });
    // a click outside the panel is a choice to leave it
    const leave = (event: PointerEvent) => {
      if (!panel.contains(event.target as Node)) inside = false;
    };
    observer.observe(panel, { childList: true, subtree: true });
    document.addEventListener('focusin', track);
    document.addEventListener('pointerdown', leave);
    track();
    return () => {
      observer.disconnect();
      document.removeEventListener('focusin', track);
      document.removeEventListener('pointerdown', leave);
    };
  }, []);
  useEffect(() => {
    const closeOnEscape = (event: KeyboardEvent) => event.key === 'Escape' && onClose();
    window.addEventListener('keydown', closeOnEscape);
    return () => window.removeEventListener('keydown', closeOnEscape);
  }, [onClose]);
  const title =
    target.kind === 'seat'
      ? `Open seat, ${longDate(target.date)}`
      : `${target.shift.user.name}, ${longDate(target.date)}`;
  return (
    <aside class="panel no-print" aria-labelledby="panel-title" ref={aside}>
      <div class="panel-head">
        <h2 id="panel-title" tabIndex={-1} ref={heading}>
          {title}
        </h2>
        <button type="button" onClick={onClose} aria-keyshortcuts="Escape">
          Close
        </button>
      </div>
      {target.kind === 'seat' ? (
        <SeatPanel
          key={`${target.assignmentId}-${target.date}`}
          target={target}
          data={data}
          session={session}
          onChanged={onChanged}
          refresh={refresh}
        />
      ) : (
        <PersonPanel
          key={target.shift.id}
          target={target}
          data={data}
          session={session}
          onChanged={onChanged}
          onOpen={onOpen}
        />
      )}
    </aside>
  );
}
