import type { ComponentChildren } from 'preact';
import type { Loadable } from './hooks';

export function Loading({ what }: { what: string }) {
  return (
    <p class="status" role="status" aria-live="polite">
      <span class="spinner" aria-hidden="true" /> Loading {what}…
    </p>
  );
}

export function ErrorBox({ message, retry }: { message: string; retry?: () => void }) {
  return (
    <div class="error" role="alert">
      <p>{message}</p>
      {retry && (
        <button type="button" onClick={retry}>
          Try again
        </button>
      )}
    </div>
  );
}

/** Renders the loading and error states of a Loadable, and `children(data)` once it is ready. */
export function Loaded<T>({
  value,
  what,
  retry,
  children,
}: {
  value: Loadable<T>;
  what: string;
  retry: () => void;
  children: (data: T) => ComponentChildren;
}) {
  if (value.state === 'loading') return <Loading what={what} />;
  if (value.state === 'error') return <ErrorBox message={value.message} retry={retry} />;
  return <>{children(value.data)}</>;
}

/**
 * A colored chip with its own text colour (work types, labels, qualifiers, time off types); when
 * that colour reads worse than WCAG AA (4.5:1) on the chip, black or white instead.
 */
export function Chip({
  color,
  textColor,
  title,
  children,
  class: extra,
}: {
  color: string;
  textColor: string;
  title?: string;
  children: ComponentChildren;
  class?: string;
}) {
  const ink = contrast(color, textColor) >= 4.5 ? textColor : readableOn(color);
  return (
    // --chip: the colour print keeps as an underline, where the name is printed black on white
    <span class={`chip ${extra ?? ''}`} style={{ background: color, color: ink, '--chip': color }} title={title}>
      {children}
    </span>
  );
}

/** WCAG relative luminance of `#rgb` or `#rrggbb` (NaN for anything else). */
function luminance(color: string): number {
  const hex = color.replace('#', '');
  const full = hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex;
  const [r, g, b] = [0, 2, 4]
    .map((i) => parseInt(full.slice(i, i + 2), 16) / 255)
    .map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG contrast ratio of two colours (0 when either is not a hex colour). */
function contrast(a: string, b: string): number {
  const [x, y] = [luminance(a), luminance(b)];
  if (Number.isNaN(x) || Number.isNaN(y)) return 0;
  return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
}

/**
 * Black or white, whichever reads better on the background colour (`#rgb` or `#rrggbb`): pure
 * black, as a softer ink reads below 4.5:1 on mid tones such as #8b5cf6.
 */
export function readableOn(background: string): string {
  return luminance(background) > 0.179 ? '#000000' : '#ffffff';
}
