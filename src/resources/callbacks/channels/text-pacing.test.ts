import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DROPPED, TEXT_GAP_MS, TextPacer } from './text-pacing.js';

/** The pacer on a fake clock: what each number was sent, when. */
describe('text pacing: at most one non-urgent text per person per 5 minutes', () => {
  let sent: Array<{ to: string; text: string; at: number }>;
  let pacer: TextPacer<string>;
  const send = async (to: string, text: string, urgent = false) => {
    const paced = await pacer.send(to, text, urgent, async (body) => {
      sent.push({ to, text: body, at: Date.now() });
      return `receipt ${sent.length}`;
    });
    return paced.outcome === 'sent' ? paced.outcome : 'coalesced';
  };

  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
    sent = [];
    pacer = new TextPacer<string>(() => undefined);
  });
  afterEach(() => {
    pacer.close();
    vi.useRealTimers();
  });

  it('sends the first at once and coalesces the later ones of the window into one at its end', async () => {
    expect(await send('+1555', 'offer A')).toBe('sent');
    vi.advanceTimersByTime(60_000);
    expect(await send('+1555', 'offer B')).toBe('coalesced');
    vi.advanceTimersByTime(60_000);
    expect(await send('+1555', 'offer C')).toBe('coalesced');
    expect(sent.map((s) => s.text)).toEqual(['offer A']);
    await vi.advanceTimersByTimeAsync(TEXT_GAP_MS - 120_000 - 1);
    expect(sent).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(sent).toEqual([
      { to: '+1555', text: 'offer A', at: 0 },
      { to: '+1555', text: 'offer B\noffer C', at: TEXT_GAP_MS },
    ]);
    // the coalesced text opened a new window
    expect(await send('+1555', 'offer D')).toBe('coalesced');
    await vi.advanceTimersByTimeAsync(TEXT_GAP_MS);
    expect(sent.map((s) => [s.text, s.at])).toEqual([
      ['offer A', 0],
      ['offer B\noffer C', TEXT_GAP_MS],
      ['offer D', 2 * TEXT_GAP_MS],
    ]);
  });

  it('sends urgent texts at once, never holds one person for another, and opens a new window', async () => {
    await send('+1555', 'offer A');
    expect(await send('+1555', 'starts within 2 hours', true)).toBe('sent');
    expect(await send('+1666', 'offer for another')).toBe('sent');
    expect(sent.map((s) => s.text)).toEqual(['offer A', 'starts within 2 hours', 'offer for another']);
    vi.advanceTimersByTime(TEXT_GAP_MS);
    expect(await send('+1555', 'after the window')).toBe('sent');
    expect(sent).toHaveLength(4);
  });

  it('a held text says until when, and settles with the receipt of the message that carried it', async () => {
    const deliver = async (body: string) => {
      sent.push({ to: '+1555', text: body, at: Date.now() });
      return `receipt ${sent.length}`;
    };
    expect(await pacer.send('+1555', 'offer A', false, deliver)).toEqual({ outcome: 'sent', result: 'receipt 1' });
    vi.advanceTimersByTime(60_000);
    const b = await pacer.send('+1555', 'offer B', false, deliver);
    const c = await pacer.send('+1555', 'offer C', false, deliver);
    expect(b).toMatchObject({ outcome: 'held', until: TEXT_GAP_MS });
    expect(c).toMatchObject({ outcome: 'held', until: TEXT_GAP_MS });
    await vi.advanceTimersByTimeAsync(TEXT_GAP_MS);
    expect(b.outcome === 'held' && (await b.sent)).toBe('receipt 2');
    expect(c.outcome === 'held' && (await c.sent)).toBe('receipt 2');
    // one dropped when the pacer closes rejects
    const d = await pacer.send('+1555', 'offer D', false, deliver);
    pacer.close();
    await expect(d.outcome === 'held' && d.sent).rejects.toThrow(DROPPED);
  });
});
