import { useRef, useState } from 'preact/hooks';
import { ErrorBox } from '../../components';

/**
 * Runs one action of the panel: `busy` while it runs (a second press is ignored; buttons say so with
 * `aria-disabled` rather than `disabled`, which would drop the keyboard focus), then a result
 * message (role=status) or the API's error in words (role=alert).
 */
export function useAction(): {
  busy: boolean;
  done: string | null;
  error: string | null;
  run: (action: () => Promise<string>) => Promise<void>;
  setDone: (message: string | null) => void;
} {
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const running = useRef(false);
  const run = async (action: () => Promise<string>) => {
    if (running.current) return;
    running.current = true;
    setBusy(true);
    setError(null);
    setDone(null);
    try {
      setDone(await action());
    } catch (failure) {
      setError((failure as Error).message);
    } finally {
      running.current = false;
      setBusy(false);
    }
  };
  return { busy, done, error, run, setDone };
}

export function Outcome({ done, error }: { done: string | null; error: string | null }) {
  return (
    <div aria-live="polite">
      {done && (
        <p class="done" role="status">
          {done}
        </p>
      )}
      {error && <ErrorBox message={error} />}
    </div>
  );
}
