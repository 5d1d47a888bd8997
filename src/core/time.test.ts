import { describe, expect, it } from 'vitest';
import { formatIsoOffset, nowUtc, parseLocalDateTime, Temporal } from './time.js';

/** The plain Temporal rendering formatIsoOffset's fast path must equal. */
function reference(utc: string, timeZone: string, colon: boolean): string {
  const zoned = Temporal.Instant.from(utc).toZonedDateTimeISO(timeZone);
  const date = zoned.toPlainDate().toString();
  const time = zoned.toPlainTime().toString({ smallestUnit: 'second' });
  return `${date}T${time}${colon ? zoned.offset : zoned.offset.replace(':', '')}`;
}

describe('formatIsoOffset', () => {
  const zones = ['America/Chicago', 'Europe/Berlin', 'Australia/Lord_Howe', 'Asia/Kolkata', 'America/St_Johns', 'Pacific/Chatham', 'UTC'];

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
    expect(formatIsoOffset('1850-06-01T12:00:00.000Z', 'America/Chicago')).toBe(reference('1850-06-01T12:00:00.000Z', 'America/Chicago', true));
  });
});

describe('parseLocalDateTime', () => {
  /** What it must agree with: Temporal's own parse with overflow rejected. */
  function reference(text: string): string | undefined {
    const match = /^(\d{4}-\d{2}-\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/.exec(text);
    if (!match) return undefined;
    try {
      return Temporal.PlainDateTime.from(`${match[1]}T${match[2] ?? '00'}:${match[3] ?? '00'}:${match[4] ?? '00'}`, { overflow: 'reject' }).toString();
    } catch {
      return undefined;
    }
  }

  it('accepts and refuses what Temporal does, leap years, month ends, hours and leap seconds included', () => {
    const texts = [
      '2026-08-01 07:00:00', '2026-08-01T07:00', '2026-08-01', '2024-02-29 00:00:00', '2026-02-29 00:00:00', '2026-04-31 07:00:00',
      '2026-04-30 24:00:00', '2026-04-30 23:60:00', '2026-04-30 23:59:60', '2026-13-01', '2026-00-10', '2026-01-00', '0001-01-01 00:00:00',
      '9999-12-31 23:59:59', '2026-1-01', '2026-08-01 7:00', 'not a date', '',
    ];
    for (const text of texts) expect(parseLocalDateTime(text)?.toString(), text).toBe(reference(text));
  });
});

describe('nowUtc', () => {
  it('writes the instant as Temporal does, to the millisecond', () => {
    const text = nowUtc();
    expect(text).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(Temporal.Instant.from(text).toString({ fractionalSecondDigits: 3 })).toBe(text);
  });
});
