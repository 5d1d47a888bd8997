import { today } from './dates';

/** The open seats' buttons on every board view (the day's Fill and Find, the month's and week's seats). */
const OPEN_SEATS = '[data-seat="open"] button, [data-seat="qualifier"] button, button.open-seat';

function focusFirst(selector: string): boolean {
  const target = document.querySelector<HTMLElement>(`#main :is(${selector})`);
  target?.focus();
  target?.scrollIntoView({ block: 'nearest' });
  return Boolean(target);
}

/** Today's cell (its first button when it has one), else the board's heading. */
function toToday(): void {
  if (focusFirst('[aria-current="date"] button')) return;
  document.querySelector('#main [aria-current="date"]')?.scrollIntoView({ block: 'nearest' });
  document.getElementById('board-title')?.focus();
}

/** The first open seat from today on (the grid's tab stop moves to it), else today. */
function toOpenSeat(): void {
  const seats = [...document.querySelectorAll<HTMLElement>(`#main :is(${OPEN_SEATS})`)];
  const current = today();
  const seat = seats.find((s) => (s.closest('[data-date]')?.getAttribute('data-date') ?? current) >= current);
  if (!seat) {
    toToday();
    return;
  }
  seat.focus();
  seat.scrollIntoView({ block: 'nearest' });
}

/** A link to `#main` (what it is without script) whose click moves the focus: the hash is the app's route. */
function SkipLink({ label, go }: { label: string; go: () => void }) {
  return (
    // biome-ignore lint/a11y/useValidAnchor: a skip link is a link; its click keeps the route's hash
    <a
      class="skip-link"
      href="#main"
      onClick={(event) => {
        event.preventDefault();
        go();
      }}
    >
      {label}
    </a>
  );
}

/**
 * The first Tab stops of every page: to the content, and on the board views to today and to the
 * first open seat, so that a seat's actions are a few Tab presses from the start.
 */
export function SkipLinks({ board }: { board: boolean }) {
  return (
    <>
      <SkipLink label="Skip to content" go={() => document.getElementById('main')?.focus()} />
      {board && <SkipLink label="Skip to today's board" go={toToday} />}
      {board && <SkipLink label="Skip to open seats" go={toOpenSeat} />}
    </>
  );
}
