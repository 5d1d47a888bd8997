import { useState } from 'preact/hooks';

export const PENDING = 0;

export const hours = (n: number) => `${Math.round(n * 100) / 100} h`;
export const requestDate = (iso: string | null) =>
  iso
    ? new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' }).format(new Date(iso))
    : 'unknown';

/** Runs an action of a card: its error in words, `busy` while it runs, then `after` (a reload). */
export function useAction(after: () => void): [string | null, (run: () => Promise<unknown>) => Promise<void>, boolean] {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const act = async (run: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    try {
      await run();
      after();
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return [error, act, busy];
}
