import { useCallback, useEffect, useState } from 'preact/hooks';

export type Loadable<T> = { state: 'loading' } | { state: 'error'; message: string } | { state: 'ready'; data: T };

/** Runs `load` whenever `deps` change; `reload` runs it again (after an action). */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): [Loadable<T>, () => void] {
  const [value, setValue] = useState<Loadable<T>>({ state: 'loading' });
  const [round, setRound] = useState(0);
  useEffect(() => {
    let current = true;
    setValue((previous) => (previous.state === 'ready' && round > 0 ? previous : { state: 'loading' }));
    load().then(
      (data) => current && setValue({ state: 'ready', data }),
      (error: Error) => current && setValue({ state: 'error', message: error.message }),
    );
    return () => {
      current = false;
    };
  }, [...deps, round]);
  const reload = useCallback(() => setRound((r) => r + 1), []);
  return [value, reload];
}
