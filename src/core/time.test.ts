import { describe, expect, it } from 'vitest';
import {
  addDays,
  datesFromTo,
  epochDayOfText,
  formatIsoOffset,
  hoursBetween,
  isLocalDateTime,
  normalizeLocalDateTime,
  nowUtc,
  parseLocalDateTime,
  Temporal,
} from './time.js';

/** The plain Temporal rendering formatIsoOffset's fast path must equal. */
function reference(utc: string, timeZone: string, colon: boolean): string {
  const zoned = Temporal.Instant.from(utc).toZonedDateTimeISO(timeZone);
  const date = zoned.toPlainDate().toString();
  const time = zoned.toPlainTime().toString({ smallestUnit: 'second' });
  return `${date}T${time}${colon ? zoned.offset : zoned.offset.replace(':', '')}`;
}

describe('formatIsoOffset', () => {
  const zones = [
    'America/Chicago',
    'Europe/Berlin',
    'Australia/Lord_Howe',
    'Asia/Kolkata',
    'America/St_Johns',
    'Pacific/Chatham',
    'UTC',
  ];

  it('writes every instant around DST changes as Temporal does, with and without the colon', () => {
    // Every 7 minutes through the weeks of the 2026 and 2027 changes, plus odd seconds and milliseconds.
    const windows = ['2026-03-06', '2026-03-27', '2026-04-03', '2026-09-25', '2026-10-23', '2026-10-30', '2027-03-12'];
    for (const zone of zones) {
      for (const day of windows) {
        const start = Date.parse(`${day}T00:00:00.000Z`);
        for (let t = start; t < start + 4 * 86_400_000; t += 7 * 60_000 + 1_337) {
          const utc = new Date(t).toISOString();
          expect(formatIsoOffset(utc, zone)).toBe(reference(utc, zone, true));
          expect(formatIsoOffset(utc, zone, false)).toBe(reference(utc, zone, false));
        }
      }
    }
  });

  it('keeps null for a missing value and handles early dates through Temporal', () => {
    expect(formatIsoOffset(null, 'UTC')).toBeNull();
    expect(formatIsoOffset('', 'UTC')).toBeNull();
    expect(formatIsoOffset('1850-06-01T12:00:00.000Z', 'America/Chicago')).toBe(
      reference('1850-06-01T12:00:00.000Z', 'America/Chicago', true),
    );
  });
});

describe('parseLocalDateTime', () => {
  /** What it must agree with: Temporal's own parse with overflow rejected. */
  function reference(text: string): string | undefined {
    const match = /^(\d{4}-\d{2}-\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/.exec(text);
    if (!match) return undefined;
    try {
      return Temporal.PlainDateTime.from(`${match[1]}T${match[2] ?? '00'}:${match[3] ?? '00'}:${match[4] ?? '00'}`, {
        overflow: 'reject',
      }).toString();
    } catch {
      return undefined;
    }
  }

  it('accepts and refuses what Temporal does, leap years, month ends, hours and leap seconds included', () => {
    const texts = [
      '2026-08-01 07:00:00',
      '2026-08-01T07:00',
      '2026-08-01',
      '2024-02-29 00:00:00',
      '2026-02-29 00:00:00',
      '2026-04-31 07:00:00',
      '2026-04-30 24:00:00',
      '2026-04-30 23:60:00',
      '2026-04-30 23:59:60',
      '2026-13-01',
      '2026-00-10',
      '2026-01-00',
      '0001-01-01 00:00:00',
      '9999-12-31 23:59:59',
      '2026-1-01',
      '2026-08-01 7:00',
      'not a date',
      '',
    ];
    for (const text of texts) expect(parseLocalDateTime(text)?.toString(), text).toBe(reference(text));
  });

  it('normalizes and checks as Temporal does, for every day of four years and odd times', () => {
    const texts: string[] = [];
    for (const year of ['1900', '2000', '2024', '2026']) {
      for (let month = 0; month <= 13; month += 1) {
        for (let day = 0; day <= 32; day += 1)
          texts.push(`${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`);
      }
    }
    texts.push(
      '2026-03-08T02:30',
      '2026-03-08 23:59:59',
      '2026-03-08 23:59:61',
      '2026-03-08 24:00',
      ' 2026-03-08 07:00:00 ',
      '0000-02-29 00:00:00',
    );
    for (const text of texts) {
      const expected = reference(text.trim());
      expect(isLocalDateTime(text), text).toBe(expected !== undefined);
      if (expected === undefined) expect(() => normalizeLocalDateTime(text)).toThrow(RangeError);
      else expect(normalizeLocalDateTime(text), text).toBe(expected.replace('T', ' '));
    }
  });
});

describe('calendar arithmetic on date text', () => {
  it('adds days and lists dates as Temporal does, across leap days, centuries and year 0', () => {
    const starts = [
      '2026-11-26',
      '2024-02-28',
      '2100-02-28',
      '2000-02-28',
      '1970-01-01',
      '1969-12-31',
      '0000-03-01',
      '0001-01-01',
      '9999-12-25',
    ];
    for (const start of starts) {
      for (const days of [-400, -366, -61, -3, -1, 0, 1, 2, 29, 365, 400]) {
        const expected = Temporal.PlainDate.from(start).add({ days }).toString();
        expect(addDays(start, days), `${start} + ${days}`).toBe(expected);
      }
      const last = Temporal.PlainDate.from(start).add({ days: 40 });
      const expected: string[] = [];
      for (let d = Temporal.PlainDate.from(start); Temporal.PlainDate.compare(d, last) <= 0; d = d.add({ days: 1 }))
        expected.push(d.toString());
      expect(datesFromTo(start, last.toString())).toEqual(expected);
    }
    expect(datesFromTo('2026-03-02', '2026-03-01')).toEqual([]);
    expect(epochDayOfText('1970-01-01')).toBe(0);
    expect(epochDayOfText('2026-02-29')).toBeUndefined();
    expect(epochDayOfText('2026-3-01')).toBeUndefined();
  });

  it('measures hours between UTC wall-clock times as Temporal does', () => {
    const pairs = [
      ['0050-01-01 00:00:00', '0051-01-01 00:00:00'],
      ['2024-02-28 12:00:00', '2024-03-01 12:30:15'],
      ['2026-01-01', '2027-01-02 06:00'],
    ];
    for (const [start, end] of pairs) {
      const reference = Temporal.PlainDateTime.from(start!.replace(' ', 'T'))
        .until(Temporal.PlainDateTime.from(end!.replace(' ', 'T')), { largestUnit: 'hours' })
        .total('hours');
      expect(hoursBetween(start!, end!, 'UTC')).toBeCloseTo(reference, 4);
    }
  });
});

describe('nowUtc', () => {
  it('writes the instant as Temporal does, to the millisecond', () => {
    const text = nowUtc();
    expect(text).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(Temporal.Instant.from(text).toString({ fractionalSecondDigits: 3 })).toBe(text);
  });
});
