import { describe, expect, it } from 'vitest';
import { assignmentOccurrences } from './recurrence.js';

const engine = {
  id: 7,
  date: '2026-03-06',
  start: '2026-03-06 07:00:00',
  end: '2026-03-07 07:00:00',
  rrule: 'FREQ=DAILY',
  until_date: null,
};

describe('assignmentOccurrences', () => {
  it('repeats the first wall-clock start and end daily; a 24h occurrence across spring DST lasts 23 hours', () => {
    expect(assignmentOccurrences(engine, '2026-03-07', '2026-03-09', 'America/Chicago')).toEqual([
      { assignment_id: 7, date: '2026-03-07', start: '2026-03-07 07:00:00', end: '2026-03-08 07:00:00', length: 23 },
      { assignment_id: 7, date: '2026-03-08', start: '2026-03-08 07:00:00', end: '2026-03-09 07:00:00', length: 24 },
      { assignment_id: 7, date: '2026-03-09', start: '2026-03-09 07:00:00', end: '2026-03-10 07:00:00', length: 24 },
    ]);
  });

  it('lasts 25 hours across the autumn change', () => {
    const [occurrence] = assignmentOccurrences(engine, '2026-10-31', '2026-10-31', 'America/Chicago');
    expect(occurrence).toEqual({
      assignment_id: 7,
      date: '2026-10-31',
      start: '2026-10-31 07:00:00',
      end: '2026-11-01 07:00:00',
      length: 25,
    });
  });

  it('has no occurrence before the first one', () => {
    expect(assignmentOccurrences(engine, '2026-03-01', '2026-03-06', 'America/Chicago').map((o) => o.date)).toEqual([
      '2026-03-06',
    ]);
  });

  it('stops at the until date', () => {
    const limited = { ...engine, until_date: '2026-03-08' };
    expect(assignmentOccurrences(limited, '2026-03-07', '2026-03-20', 'UTC').map((o) => o.date)).toEqual([
      '2026-03-07',
      '2026-03-08',
    ]);
  });

  it('follows weekly and interval rules', () => {
    const training = {
      ...engine,
      start: '2026-03-03 09:00:00',
      end: '2026-03-03 12:00:00',
      date: '2026-03-03',
      rrule: 'RRULE:FREQ=WEEKLY;BYDAY=TU',
    };
    expect(assignmentOccurrences(training, '2026-03-01', '2026-03-31', 'UTC')).toEqual(
      ['03', '10', '17', '24', '31'].map((day) => ({
        assignment_id: 7,
        date: `2026-03-${day}`,
        start: `2026-03-${day} 09:00:00`,
        end: `2026-03-${day} 12:00:00`,
        length: 3,
      })),
    );
    const everyThird = { ...engine, rrule: 'FREQ=DAILY;INTERVAL=3' };
    expect(assignmentOccurrences(everyThird, '2026-03-06', '2026-03-16', 'UTC').map((o) => o.date)).toEqual([
      '2026-03-06',
      '2026-03-09',
      '2026-03-12',
      '2026-03-15',
    ]);
  });

  it('gives every window, across month and year ends, the dates its rule names (kept a month at a time)', () => {
    const day = (date: string) => Date.parse(`${date}T00:00:00Z`) / 86_400_000;
    const weekday = (date: string) => new Date(`${date}T00:00:00Z`).getUTCDay();
    const rules = [
      {
        rrule: 'FREQ=DAILY;INTERVAL=3',
        until_date: null,
        names: (date: string) => (day(date) - day('2026-03-06')) % 3 === 0,
      },
      { rrule: 'FREQ=WEEKLY;BYDAY=MO,TH', until_date: null, names: (date: string) => [1, 4].includes(weekday(date)) },
      {
        rrule: 'FREQ=MONTHLY;BYMONTHDAY=31',
        until_date: '2027-03-31',
        names: (date: string) => date.endsWith('-31') && date <= '2027-03-31',
      },
      { rrule: 'FREQ=DAILY', until_date: '2026-12-30', names: (date: string) => date <= '2026-12-30' },
    ];
    const windows = [
      ['2026-03-06', '2026-03-06'],
      ['2026-03-28', '2026-04-03'],
      ['2026-05-30', '2026-08-02'],
      ['2026-12-27', '2027-01-05'],
      ['2026-12-31', '2026-12-31'],
      ['2027-01-29', '2027-03-02'],
      ['2026-02-20', '2026-03-10'],
      ['2027-04-01', '2027-03-31'],
    ];
    for (const { rrule, until_date, names } of rules) {
      const assignment = { ...engine, rrule, until_date };
      for (const [from, to] of windows) {
        const expected: string[] = [];
        for (let d = day(from!); d <= day(to!); d += 1) {
          const date = new Date(d * 86_400_000).toISOString().slice(0, 10);
          if (date >= engine.date && names(date)) expected.push(date);
        }
        const occurrences = assignmentOccurrences(assignment, from!, to!, 'America/Chicago');
        expect(
          occurrences.map((o) => o.date),
          `${rrule} ${from}..${to}`,
        ).toEqual(expected);
        for (const o of occurrences) expect(o.start).toBe(`${o.date} 07:00:00`);
      }
    }
  });

  it('gives a non-recurring assignment its one occurrence only', () => {
    const once = { ...engine, rrule: null };
    expect(assignmentOccurrences(once, '2026-03-01', '2026-03-31', 'UTC').map((o) => o.date)).toEqual(['2026-03-06']);
    expect(assignmentOccurrences(once, '2026-03-07', '2026-03-31', 'UTC')).toEqual([]);
  });

  it('gives the same occurrences for an assignment started long ago, quickly', () => {
    const old = { ...engine, date: '2000-01-03', start: '2000-01-03 07:00:00', end: '2000-01-04 07:00:00' };
    const everyThird = { ...old, rrule: 'FREQ=DAILY;INTERVAL=3' };
    const dates = assignmentOccurrences(everyThird, '2026-03-01', '2026-03-10', 'UTC').map((o) => o.date);
    const daysSinceStart = (date: string) => (Date.parse(date) - Date.parse('2000-01-03')) / 86_400_000;
    expect(dates.length).toBeGreaterThanOrEqual(3);
    expect(dates.every((date) => daysSinceStart(date) % 3 === 0)).toBe(true);
    const fortnightly = { ...old, rrule: 'FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH' };
    const fortnightlyDates = assignmentOccurrences(fortnightly, '2026-03-01', '2026-03-31', 'UTC').map((o) => o.date);
    expect(fortnightlyDates.every((date) => Math.floor(daysSinceStart(date) / 7) % 2 === 0)).toBe(true);
    expect(fortnightlyDates.map((date) => new Date(date).getUTCDay()).sort()).toEqual([1, 1, 4, 4]);
    const started = performance.now();
    assignmentOccurrences({ ...old, rrule: 'FREQ=DAILY' }, '2026-01-01', '2026-01-31', 'UTC');
    expect(performance.now() - started).toBeLessThan(50);
  });

  it('expands 90 days of a daily assignment', () => {
    expect(assignmentOccurrences(engine, '2026-03-06', '2026-06-03', 'America/Chicago')).toHaveLength(90);
  });
});
