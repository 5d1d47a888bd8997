/** A person gets at most one non-urgent text per this many milliseconds (docs/workflows.md, "Text pacing"). */
export const TEXT_GAP_MS = 5 * 60_000;
/** An offer of a callback that starts within this many milliseconds is urgent: it is texted at once. */
export const URGENT_WITHIN_MS = 2 * 60 * 60_000;

interface Waiting<R> {
  texts: string[];
  timer: NodeJS.Timeout;
  /** ms: when the waiting message is due */
  until: number;
  deliver: (text: string) => Promise<R>;
  /** settled by the waiting message's delivery (its `deliver`'s answer, or its failure) */
  done: Deferred<R>;
}

interface Deferred<R> {
  promise: Promise<R>;
  resolve: (value: R) => void;
  reject: (error: unknown) => void;
}

function deferred<R>(): Deferred<R> {
  const done = {} as Deferred<R>;
  done.promise = new Promise<R>((resolve, reject) => Object.assign(done, { resolve, reject }));
  // heard by `failed` when nobody else listens
  done.promise.catch(() => undefined);
  return done;
}

/** What became of a text: sent now (with `deliver`'s answer), or held until `until` (ms), `sent` settling then. */
export type Paced<R> = { outcome: 'sent'; result: R } | { outcome: 'held'; until: number; sent: Promise<R> };

/** A held text dropped when the pacer closes (the process stops): its `sent` rejects with this. */
export const DROPPED = 'the process stopped before the held text went out';

/**
 * Paces the texts to each person (`to`: the person's key): an urgent text, or the first in TEXT_GAP_MS, goes at
 * once; the non-urgent ones that come later in the gap wait for its end and go then as one message (their texts
 * one per line). Per process, in memory: a process that stops drops what waits (the offers stay open, on the
 * board and by link). `failed` hears a combined text's failure. `now`: the clock (ms). `R`: what `deliver`
 * answers (the provider's receipt), handed to every text the message carried.
 */
export class TextPacer<R = void> {
  private readonly lastSent = new Map<string, number>();
  private readonly waiting = new Map<string, Waiting<R>>();

  constructor(
    private readonly failed: (to: string, error: unknown) => void,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Sends `text` to the person `to` now by `deliver` (answers `sent` and what `deliver` answered), or adds it
   * to the person's waiting message (answers `held`), which the first waiting text's `deliver` sends at the
   * gap's end; `sent` settles then.
   */
  async send(to: string, text: string, urgent: boolean, deliver: (text: string) => Promise<R>): Promise<Paced<R>> {
    const now = this.now();
    const last = this.lastSent.get(to);
    let waiting = this.waiting.get(to);
    if (!urgent && (waiting || (last !== undefined && now - last < TEXT_GAP_MS))) {
      if (waiting) waiting.texts.push(text);
      else {
        const until = (last ?? now) + TEXT_GAP_MS;
        const timer = setTimeout(() => this.flush(to), until - now);
        timer.unref();
        const done = deferred<R>();
        waiting = { texts: [text], timer, until, deliver, done };
        this.waiting.set(to, waiting);
      }
      return { outcome: 'held', until: waiting.until, sent: waiting.done.promise };
    }
    this.lastSent.set(to, now);
    return { outcome: 'sent', result: await deliver(text) };
  }

  /** Stops the timers; what waits is dropped (its `sent` rejects with DROPPED). */
  close(): void {
    for (const { timer, done } of this.waiting.values()) {
      clearTimeout(timer);
      done.reject(new Error(DROPPED));
    }
    this.waiting.clear();
  }

  private flush(to: string): void {
    const waiting = this.waiting.get(to);
    this.waiting.delete(to);
    if (!waiting) return;
    this.lastSent.set(to, this.now());
    waiting.deliver(waiting.texts.join('\n')).then(waiting.done.resolve, (error: unknown) => {
      this.failed(to, error);
      waiting.done.reject(error);
    });
  }
}
