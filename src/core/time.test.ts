import { describe, expect, it } from 'vitest';
import { formatIsoOffset, Temporal } from './time.js';

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
