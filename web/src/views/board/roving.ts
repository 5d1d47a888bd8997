import type { RefObject } from 'preact';
import { useEffect } from 'preact/hooks';

/** What the grid's keyboard moves between: its buttons and links. */
const ITEMS = 'button:not([disabled]), a[href]';
const CURRENT = 'data-roving';

function itemsOf(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(ITEMS)];
}

/** Makes `item` the grid's one tab stop (tabindex 0), every other item -1. */
function makeCurrent(root: HTMLElement, item: HTMLElement): void {
  for (const other of itemsOf(root)) {
    other.tabIndex = other === item ? 0 : -1;
    if (other === item) other.setAttribute(CURRENT, '');
    else other.removeAttribute(CURRENT);
  }
}

/**
 * A roving tabindex (WAI-ARIA grid pattern): the grid is one Tab stop (the item last focused, at
 * first the first item of today's cell, else the first item); ← → move to the previous / next
 * item, ↑ ↓ to the first item of the cell `columns` cells before / after (a week up or down in the
 * month, the apparatus before or after in the day), Home / End to the first / last item.
 * `cells` selects the grid's cells in order (pads included, so that ↑ ↓ keep the column).
 */
export function useRovingTabindex(ref: RefObject<HTMLElement>, cells: string, columns = 1): void {
  // after every render (a live update adds and removes items): exactly one stays tabbable
  useEffect(() => {
    const root = ref.current;
    if (!root) return;
    const items = itemsOf(root);
    const current =
      items.find((item) => item.hasAttribute(CURRENT)) ??
      root.querySelector<HTMLElement>(`[aria-current="date"] :is(${ITEMS})`) ??
      items[0];
    if (current) makeCurrent(root, current);
  });
  useEffect(() => {
    const root = ref.current;
    if (!root) return;
    const focusin = (event: FocusEvent) => {
      const target = event.target as HTMLElement;
      if (target.matches(ITEMS)) makeCurrent(root, target);
    };
    const keydown = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement;
      if (!target.matches(ITEMS) || event.altKey || event.ctrlKey || event.metaKey) return;
      const items = itemsOf(root);
      const at = items.indexOf(target);
      let next: HTMLElement | undefined;
      if (event.key === 'ArrowRight') next = items[at + 1];
      else if (event.key === 'ArrowLeft') next = items[at - 1];
      else if (event.key === 'Home') next = items[0];
      else if (event.key === 'End') next = items[items.length - 1];
      else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        const all = [...root.querySelectorAll<HTMLElement>(cells)];
        const step = event.key === 'ArrowDown' ? columns : -columns;
        let cell = all.findIndex((c) => c.contains(target)) + step;
        for (; cell >= 0 && cell < all.length && !next; cell += step)
          next = all[cell].querySelector<HTMLElement>(ITEMS) ?? undefined;
      } else return;
      event.preventDefault();
      if (next) next.focus();
    };
    root.addEventListener('focusin', focusin);
    root.addEventListener('keydown', keydown);
    return () => {
      root.removeEventListener('focusin', focusin);
      root.removeEventListener('keydown', keydown);
    };
  }, [cells, columns]);
}
