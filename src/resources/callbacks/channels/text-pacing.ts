/** A person gets at most one non-urgent text per this many milliseconds (docs/workflows.md, "Text pacing"). */
export const TEXT_GAP_MS = 5 * 60_000;
/** An offer of a callback that starts within this many milliseconds is urgent: it is texted at once. */
export const URGENT_WITHIN_MS = 2 * 60 * 60_000;

interface Waiting {
  texts: string[];
  timer: NodeJS.Timeout;
  deliver: (text: string) => Promise<void>;
}

/**
 * Paces the texts to each person (`to`: the person's key): an urgent text, or the first in TEXT_GAP_MS, goes at
 * once; the non-urgent ones that come later in the gap wait for its end and go then as one message (their texts
 * one per line). Per process, in memory: a process that stops drops what waits (the offers stay open, on the
 * board and by link). `failed` hears a combined text's failure. `now`: the clock (ms).
 */
export class TextPacer {
  private readonly lastSent = new Map<string, number>();
  private readonly waiting = new Map<string, Waiting>();

  constructor(
    private readonly failed: (to: string, error: unknown) => void,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Sends `text` to the person `to` now by `deliver` (answers `sent`), or adds it to the person's waiting
   * message (answers `coalesced`), which the first waiting text's `deliver` sends at the gap's end.
   */
  async send(
    to: string,
    text: string,
    urgent: boolean,
    deliver: (text: string) => Promise<void>,
  ): Promise<'sent' | 'coalesced'> {
    const now = this.now();
    const last = this.lastSent.get(to);
    const waiting = this.waiting.get(to);
    if (!urgent && (waiting || (last !== undefined && now - last < TEXT_GAP_MS))) {
      if (waiting) waiting.texts.push(text);
      else {
        const timer = setTimeout(() => this.flush(to), (last ?? now) + TEXT_GAP_MS - now);
        timer.unref();
        this.waiting.set(to, { texts: [text], timer, deliver });
      }
      return 'coalesced';
    }
    this.lastSent.set(to, now);
    await deliver(text);
    return 'sent';
  }

  /** Stops the timers; what waits is dropped. */
  close(): void {
    for (const { timer } of this.waiting.values()) clearTimeout(timer);
    this.waiting.clear();
  }

  private flush(to: string): void {
    const waiting = this.waiting.get(to);
    this.waiting.delete(to);
    if (!waiting) return;
    this.lastSent.set(to, this.now());
    waiting.deliver(waiting.texts.join('\n')).catch((error: unknown) => this.failed(to, error));
  }
}
