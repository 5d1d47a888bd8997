import { useEffect, useRef, useState } from 'preact/hooks';
import { client, SIGNED_OUT_EVENT } from './api';

/** After a stream ends or fails, the next try waits this long (doubling up to RETRY_MAX_MS). */
const RETRY_MS = 1000;
const RETRY_MAX_MS = 15_000;

/**
 * Listens to GET /v1/changes (server-sent events, docs/webapp.md) through the typed client, as a
 * stream (EventSource cannot send the session header), and calls `changed` after each `change`
 * event, and after each reconnection (what happened while the stream was down is unknown). It
 * reconnects by itself until `stop` is called; a 401 ends it and signs the app out. A hidden tab
 * lets its stream go (a browser keeps about six connections per server: tabs left open in the
 * background would take them all) and opens it again, reading again, when it is shown.
 */
export function listenToChanges(changed: () => void): () => void {
  let stopped = false;
  let connection = new AbortController();
  let wake: () => void = () => undefined;
  let delay = RETRY_MS;
  let opened = 0;
  const hidden = () => document.visibilityState === 'hidden';
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  const run = async () => {
    while (!stopped) {
      if (hidden()) {
        await pause(RETRY_MAX_MS);
        continue;
      }
      connection = new AbortController();
      try {
        const { data, response } = await client.GET('/v1/changes', {
          parseAs: 'stream',
          signal: connection.signal,
          headers: { Accept: 'text/event-stream' },
        });
        if (response.status === 401) {
          window.dispatchEvent(new Event(SIGNED_OUT_EVENT));
          return;
        }
        if (response.ok && data) {
          opened += 1;
          if (opened > 1) changed();
          delay = RETRY_MS;
          await readEvents(data, (name) => name === 'change' && changed());
        }
      } catch {
        // the server cannot be reached, the stream broke, or the tab was hidden: try again shortly
      }
      if (stopped) return;
      if (!hidden()) {
        await pause(delay);
        delay = Math.min(delay * 2, RETRY_MAX_MS);
      }
    }
  };
  const visibility = () => {
    if (hidden()) connection.abort();
    else {
      delay = RETRY_MS;
      wake();
    }
  };
  document.addEventListener('visibilitychange', visibility);
  void run();
  return () => {
    stopped = true;
    document.removeEventListener('visibilitychange', visibility);
    connection.abort();
    wake();
  };
}

/** Reads `event:` names off a text/event-stream body until it ends. */
async function readEvents(body: ReadableStream<Uint8Array>, heard: (name: string) => void): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true }).replace(/\r\n?/g, '\n');
    let end = buffer.indexOf('\n\n');
    while (end >= 0) {
      const name = /^event: ?(.*)$/m.exec(buffer.slice(0, end))?.[1];
      if (name) heard(name);
      buffer = buffer.slice(end + 2);
      end = buffer.indexOf('\n\n');
    }
  }
}

/** The views listening, and the one stream they share (a browser keeps few connections per server). */
const listeners = new Set<() => void>();
let stopStream: (() => void) | undefined;

/** Calls `changed` after each change (one shared stream while anyone listens); answers how to stop. */
function onChanges(changed: () => void): () => void {
  listeners.add(changed);
  stopStream ??= listenToChanges(() => {
    for (const listener of [...listeners]) listener();
  });
  return () => {
    listeners.delete(changed);
    if (listeners.size === 0) {
      stopStream?.();
      stopStream = undefined;
    }
  };
}

/**
 * A number that grows whenever anything of the organization changes (GET /v1/changes), or when
 * `bump` is called (after one's own action): views read again when it moves. Changes that come
 * close together count once.
 */
export function useChangeCount(): [number, () => void] {
  const [count, setCount] = useState(0);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  useEffect(() => {
    const stop = onChanges(() => {
      clearTimeout(timer.current);
      timer.current = setTimeout(() => setCount((n) => n + 1), 100);
    });
    return () => {
      clearTimeout(timer.current);
      stop();
    };
  }, []);
  return [count, () => setCount((n) => n + 1)];
}
