import { describe, expect, it } from 'vitest';
import { splitOccurrence, type WorkSpan } from './segments.js';
import { closeMinute } from './time-off.js';

const shift = (day: string, nextDay: string): WorkSpan => ({
  date: day,
  start: `${day} 07:00:00`,
  end: `${nextDay} 07:00:00`,
  length: 24,
  break_start: `${day} 12:00:00`,
  break_end: `${day} 12:30:00`,
});
const scheduled = { followsSchedule: true, defaultDayHours: 8, timeZone: 'America/Chicago' };
const office = { followsSchedule: false, defaultDayHours: 8, timeZone: 'America/Chicago' };

describe('splitOccurrence', () => {
  it('leaves out the hours worked over the leave anyway (a recall): the rest of the shift stays charged', () => {
    const leave = { start: '2026-03-02 07:00:00', end: '2026-03-03 07:00:00' };
    const recalled = [{ start: '2026-03-02 10:00:00', end: '2026-03-02 14:00:00' }];
    const segments = splitOccurrence(leave, [shift('2026-03-02', '2026-03-03')], { ...scheduled, worked: recalled });
    expect(segments.map((s) => [s.date, s.start, s.end, s.length, s.real_length, s.anchor])).toEqual([
      ['2026-03-02', '2026-03-02 07:00:00', '2026-03-02 10:00:00', 3, 3, '2026-03-02 07:00:00'],
      ['2026-03-02', '2026-03-02 14:00:00', '2026-03-03 07:00:00', 17, 17, '2026-03-02 07:00:00'],
    ]);
    const whole = [{ start: '2026-03-02 07:00:00', end: '2026-03-03 07:00:00' }];
    expect(splitOccurrence(leave, [shift('2026-03-02', '2026-03-03')], { ...scheduled, worked: whole })).toEqual([]);
    // office staff: the day piece keeps at most its default day, less nothing it still covers
    const day = splitOccurrence(leave, [], { ...office, worked: recalled });
    expect(day.map((s) => s.length)).toEqual([3, 5]);
  });

  it('gives a two-week leave on a 24/48 rotation one segment per shift, dated by the shift', () => {
    const work = ['02', '05', '08', '11', '14'].map((d) =>
      shift(`2026-03-${d}`, `2026-03-${String(Number(d) + 1).padStart(2, '0')}`),
    );
    const segments = splitOccurrence({ start: '2026-03-02 07:00:00', end: '2026-03-16 07:00:00' }, work, scheduled);
    expect(segments.map((s) => [s.date, s.start, s.end, s.length, s.real_length])).toEqual([
      ['2026-03-02', '2026-03-02 07:00:00', '2026-03-03 07:00:00', 24, 23.5],
      ['2026-03-05', '2026-03-05 07:00:00', '2026-03-06 07:00:00', 24, 23.5],
      ['2026-03-08', '2026-03-08 07:00:00', '2026-03-09 07:00:00', 24, 23.5],
      ['2026-03-11', '2026-03-11 07:00:00', '2026-03-12 07:00:00', 24, 23.5],
      ['2026-03-14', '2026-03-14 07:00:00', '2026-03-15 07:00:00', 24, 23.5],
    ]);
  });

  it('charges only the part of a shift the leave covers, the break inside it counted apart', () => {
    const segments = splitOccurrence(
      { start: '2026-03-02 10:00:00', end: '2026-03-02 18:00:00' },
      [shift('2026-03-02', '2026-03-03')],
      scheduled,
    );
    expect(segments).toEqual([
      {
        start: '2026-03-02 10:00:00',
        end: '2026-03-02 18:00:00',
        length: 8,
        real_length: 7.5,
        date: '2026-03-02',
        anchor: '2026-03-02 07:00:00',
      },
    ]);
  });

  it('a date-only day on a 07:00 shift charges the 17 hours it covers', () => {
    const segments = splitOccurrence(
      { start: '2027-02-10 00:00:00', end: '2027-02-11 00:00:00' },
      [{ ...shift('2027-02-10', '2027-02-11'), break_start: null, break_end: null }],
      scheduled,
    );
    expect(segments.map((s) => s.length)).toEqual([17]);
  });

  it('charges nothing for leave on the day off of someone who follows a rotation, and shows the day', () => {
    const segments = splitOccurrence({ start: '2026-03-03 07:00:00', end: '2026-03-04 07:00:00' }, [], scheduled);
    expect(segments).toEqual([
      {
        start: '2026-03-03 07:00:00',
        end: '2026-03-04 07:00:00',
        length: 0,
        real_length: 0,
        date: '2026-03-03',
        anchor: '2026-03-03 07:00:00',
      },
    ]);
  });

  it('charges the default day to someone with no schedule, a shorter day by its real hours', () => {
    const week = splitOccurrence({ start: '2026-03-07 00:00:00', end: '2026-03-09 00:00:00' }, [], office);
    expect(week.map((s) => [s.date, s.length])).toEqual([
      ['2026-03-07', 8],
      ['2026-03-08', 8],
    ]);
    const morning = splitOccurrence({ start: '2026-03-10 08:00:00', end: '2026-03-10 12:00:00' }, [], office);
    expect(morning.map((s) => s.length)).toEqual([4]);
    // the spring change: 02:00–03:00 does not exist on 2026-03-08 in Chicago
    const night = splitOccurrence({ start: '2026-03-08 00:00:00', end: '2026-03-08 05:00:00' }, [], {
      ...office,
      defaultDayHours: 24,
    });
    expect(night.map((s) => s.length)).toEqual([4]);
  });

  it('counts real hours of a shift across the daylight saving change', () => {
    const dst = { ...shift('2026-03-07', '2026-03-08'), length: 23, break_start: null, break_end: null };
    const segments = splitOccurrence({ start: '2026-03-07 00:00:00', end: '2026-03-09 00:00:00' }, [dst], scheduled);
    expect(segments.map((s) => s.length)).toEqual([23]);
  });
});

describe('closeMinute', () => {
  it('reads hh:mm:59 as the end of that minute', () => {
    expect(closeMinute('2026-12-14 23:59:59')).toBe('2026-12-15 00:00:00');
    expect(closeMinute('2026-12-31 23:59:59')).toBe('2027-01-01 00:00:00');
    expect(closeMinute('2026-12-14 16:59:59')).toBe('2026-12-14 17:00:00');
    expect(closeMinute('2026-12-14 16:29:59')).toBe('2026-12-14 16:30:00');
    expect(closeMinute('2026-12-14 16:29:58')).toBe('2026-12-14 16:29:58');
    expect(closeMinute('2026-12-14 17:00:00')).toBe('2026-12-14 17:00:00');
  });
});
