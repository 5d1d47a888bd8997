import { describe, expect, it } from 'vitest';
import { checkRule, parseRule } from './recurrence.js';

describe('parseRule', () => {
  it('accepts RFC 5545 rules and rejects other text', () => {
    expect(parseRule('FREQ=DAILY')).toBeDefined();
    expect(parseRule('RRULE:FREQ=WEEKLY;BYDAY=MO,WE')).toBeDefined();
    expect(parseRule('daily')).toBeUndefined();
    expect(parseRule('FREQ=SOMETIMES')).toBeUndefined();
    expect(parseRule('DTSTART:20260101T000000Z\nRRULE:FREQ=DAILY')).toBeUndefined();
    expect(parseRule('FREQ=SECONDLY')).toBeUndefined();
    expect(parseRule('FREQ=HOURLY;INTERVAL=24')).toBeUndefined();
    expect(parseRule('FREQ=DAILY;BYHOUR=7,19')).toBeUndefined();
  });
});

describe('checkRule', () => {
  const problem = (text: string, maxCount?: number) => checkRule(text, { maxCount }).problem;

  it('names what is wrong with a rule, for people', () => {
    expect(problem('every day')).toBe('The rrule is not a valid RFC 5545 recurrence rule.');
    expect(problem('FREQ=DAILY;SOMETIMES=1')).toBe('The rrule is not a valid RFC 5545 recurrence rule.');
    expect(problem('FREQ=HOURLY')).toBe('The rrule must have a FREQ of DAILY, WEEKLY, MONTHLY or YEARLY.');
    expect(problem('FREQ=DAILY;DTSTART=20260101T000000Z')).toBe(
      'The rrule may not carry DTSTART: the start is the first occurrence.',
    );
    expect(problem('DTSTART:20260101T000000Z\nRRULE:FREQ=DAILY')).toBe(
      'The rrule may not carry DTSTART: the start is the first occurrence.',
    );
    expect(problem('FREQ=DAILY;TZID=Europe/Paris')).toBe(
      "The rrule may not carry TZID: occurrences are in the organization's time zone.",
    );
    expect(problem('FREQ=DAILY;byminute=30')).toBe(
      "The rrule may not carry BYMINUTE: every occurrence keeps the start's time of day.",
    );
  });

  it('bounds COUNT only for the callers that ask', () => {
    expect(problem('FREQ=DAILY;COUNT=1001', 1000)).toBe('The rrule COUNT may not be greater than 1000.');
    expect(problem('FREQ=DAILY;COUNT=1000', 1000)).toBeUndefined();
    expect(problem('FREQ=DAILY;COUNT=5000')).toBeUndefined();
  });

  it('answers the options of a usable rule, prefix or not', () => {
    expect(checkRule('RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=MO').rule).toMatchObject({ freq: 2, interval: 2 });
  });
});
