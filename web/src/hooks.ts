import { useCallback, useEffect, useRef, useState } from 'preact/hooks';

export type Loadable<T> = { state: 'loading' } | { state: 'error'; message: string } | { state: 'ready'; data: T };

/**
 * Runs `load` whenever `deps` change; `reload` runs it again (after an action), and so does a new
 * `refresh` (a change heard from the server, see live.ts). Reading again for the same deps keeps
 * what is shown until the new data is in: no flash of "loading", no lost focus or scroll.
 */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[], refresh = 0): [Loadable<T>, () => void] {
  const [value, setValue] = useState<Loadable<T>>({ state: 'loading' });
  const [round, setRound] = useState(0);
  const shown = useRef<string | undefined>(undefined);
  useEffect(() => {
    let current = true;
    const key = JSON.stringify(deps);
    const same = shown.current === key;
    shown.current = key;
    setValue((previous) => (previous.state === 'ready' && same ? previous : { state: 'loading' }));
    load().then(
      (data) => current && setValue({ state: 'ready', data }),
      (error: Error) => current && setValue({ state: 'error', message: error.message }),
    );
    return () => {
      current = false;
    };
  }, [...deps, round, refresh]);
  const reload = useCallback(() => setRound((r) => r + 1), []);
  return [value, reload];
}

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
