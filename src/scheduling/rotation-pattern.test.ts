import { describe, expect, it } from 'vitest';
import { fullCycleDays, PRESETS, slotOn, type RotationPattern } from './rotation-pattern.js';
import { Temporal } from '../core/time.js';

const anchor = '2026-03-01';
const rotationOf = (name: string, kellyEvery: number | null = null): RotationPattern => ({
  anchorDate: anchor,
  pattern: PRESETS[name]!.pattern,
  kellyEvery: kellyEvery ?? PRESETS[name]!.kellyEvery ?? null,
});

/** Which crew works each day of the first `days` days, e.g. "ABCABC". */
function crewLine(name: string, days: number, kellyEvery: number | null = null): string {
  const rotation = rotationOf(name, kellyEvery);
  let line = '';
  for (let d = 0; d < days; d++) {
    const date = Temporal.PlainDate.from(anchor).add({ days: d }).toString();
    const on = Object.entries(PRESETS[name]!.crews)
      .filter(([, offset]) => slotOn(rotation, { crewOffset: offset, kellyOffset: 0 }, date) > 0)
      .map(([crew]) => crew);
    line += on.join('') || '-';
  }
  return line;
}

describe('slotOn', () => {
  it('rotates three crews on 24/48', () => {
    expect(crewLine('24/48', 9)).toBe('ABCABCABC');
  });

  it('works before the anchor date too', () => {
    const rotation = rotationOf('24/48');
    expect(slotOn(rotation, { crewOffset: 0, kellyOffset: 0 }, '2026-02-26')).toBe(1);
    expect(slotOn(rotation, { crewOffset: 0, kellyOffset: 0 }, '2026-02-27')).toBe(0);
  });

  it('covers every day with exactly one crew on 48/96, 1-2-1-4, the 9-day platoon and 4-on/4-off', () => {
    expect(crewLine('48/96', 12)).toBe('AABBCCAABBCC');
    expect(crewLine('1-2-1-4', 8)).toBe('ADBACBDC');
    expect(crewLine('platoon-9', 9)).toBe('ACABABCBC');
    expect(crewLine('4on-4off', 10)).toBe('AAAABBBBAA');
  });

  it('takes every 7th on-duty shift off with Kelly days: a 21-day cycle', () => {
    const rotation = rotationOf('24/48', 7);
    const member = { crewOffset: 0, kellyOffset: 0 };
    const worked = Array.from({ length: 42 }, (_, d) =>
      Temporal.PlainDate.from(anchor).add({ days: d }).toString(),
    ).filter((date) => slotOn(rotation, member, date) > 0);
    expect(worked).toHaveLength(12);
    expect(worked).not.toContain('2026-03-19');
    expect(worked).not.toContain('2026-04-09');
    expect(fullCycleDays(rotation)).toBe(21);
  });

  it('staggers Kelly days between members by their Kelly offset', () => {
    const rotation = rotationOf('24/48', 7);
    expect(slotOn(rotation, { crewOffset: 0, kellyOffset: 1 }, '2026-03-16')).toBe(0);
    expect(slotOn(rotation, { crewOffset: 0, kellyOffset: 1 }, '2026-03-19')).toBe(1);
  });

  it('names the assignment slot of a compound rotation', () => {
    const rotation: RotationPattern = { anchorDate: anchor, pattern: [1, 0, 0, 2, 0, 0], kellyEvery: null };
    const member = { crewOffset: 0, kellyOffset: 0 };
    expect(['2026-03-01', '2026-03-04', '2026-03-07', '2026-03-02'].map((d) => slotOn(rotation, member, d))).toEqual([
      1, 2, 1, 0,
    ]);
  });
});
