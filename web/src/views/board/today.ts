import { useEffect, useRef } from 'preact/hooks';

/** Brings today's cell of the board (marked `aria-current="date"`) into view; false when it is not shown. */
export function scrollToToday(): boolean {
  const cell = document.querySelector<HTMLElement>('main [aria-current="date"]');
  cell?.scrollIntoView({ block: 'nearest', inline: 'center' });
  return cell !== null;
}

/** Once per view and period, when its data is first shown: scrolls to today (month, week, roster, agenda). */
export function useScrollToToday(view: string, ready: boolean): void {
  const scrolled = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (!ready || scrolled.current === view) return;
    scrolled.current = view;
    scrollToToday();
  }, [view, ready]);
}
