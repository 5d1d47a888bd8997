import { LRUCache } from 'lru-cache';
import * as rruleModule from 'rrule';
import type { Options, RRule as RRuleInstance } from 'rrule';
import { Temporal } from './time.js';

/**
 * The one place that loads `rrule` (RFC 5545 recurrence rules); every resource imports RRule and
 * Frequency from here, never from 'rrule'.
 *
 * rrule 2.x ships a CommonJS (UMD) build as `main` and an ES build as `module`. Node's ESM loader
 * (`npm start`, the CLI: tsx) loads the CommonJS build, whose exports Node cannot list statically,
 * so `import { RRule } from 'rrule'` fails there and everything sits under `default`; vitest and
 * bundlers load the ES build, where the named exports are real. Resolving both forms here keeps
 * the server, the CLI and the tests on the same code.
 */
const rrule = ((rruleModule as unknown as { default?: typeof rruleModule }).default ??
  rruleModule) as typeof rruleModule;

export const RRule = rrule.RRule;
export type RRule = RRuleInstance;
export const Frequency = rrule.Frequency;
export type RRuleOptions = Options;

/** rrule works on "floating" times: wall-clock readings stored in a Date's UTC fields. */
export function toFloatingDate(local: Temporal.PlainDateTime): Date {
  return new Date(Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute, local.second));
}

export function fromFloatingDate(date: Date): Temporal.PlainDateTime {
  return new Temporal.PlainDateTime(
    date.getUTCFullYear(),
    date.getUTCMonth() + 1,
    date.getUTCDate(),
    date.getUTCHours(),
    date.getUTCMinutes(),
    date.getUTCSeconds(),
  );
}

/** `RRULE:FREQ=…` or `FREQ=…` → the rule text without the prefix, trimmed. */
export function ruleBody(text: string): string {
  return text.trim().replace(/^RRULE:/i, '');
}

/** What a resource accepts beyond the rules every recurring record shares. */
export interface RulePolicy {
  /** The largest COUNT accepted (a rule that is expanded whole to find its last occurrence). */
  maxCount?: number;
}

export type RuleCheck =
  | { rule: Readonly<Partial<RRuleOptions>>; problem?: undefined }
  | { rule?: undefined; problem: string };

const NOT_A_RULE = 'The rrule is not a valid RFC 5545 recurrence rule.';

/** Sub-daily frequencies would make millions of occurrences a month: a record repeats by days. */
const ALLOWED_FREQUENCIES: ReadonlySet<number> = new Set([
  Frequency.DAILY,
  Frequency.WEEKLY,
  Frequency.MONTHLY,
  Frequency.YEARLY,
]);

/** Parts a rule may not carry: the record's own start gives the first occurrence, its zone and its time of day. */
const REFUSED_PARTS: Record<string, string> = {
  DTSTART: 'The rrule may not carry DTSTART: the start is the first occurrence.',
  TZID: "The rrule may not carry TZID: occurrences are in the organization's time zone.",
  BYHOUR: "The rrule may not carry BYHOUR: every occurrence keeps the start's time of day.",
  BYMINUTE: "The rrule may not carry BYMINUTE: every occurrence keeps the start's time of day.",
  BYSECOND: "The rrule may not carry BYSECOND: every occurrence keeps the start's time of day.",
};

/**
 * The one RRULE parser of recurring records (assignments, time off). `text` is one rule
 * (`FREQ=DAILY;INTERVAL=2`, optionally prefixed `RRULE:`); the answer is its options, or the
 * message telling the person what is wrong with it. Every record's rule repeats its first
 * occurrence by days: FREQ DAILY, WEEKLY, MONTHLY or YEARLY, no DTSTART, TZID, BYHOUR, BYMINUTE
 * or BYSECOND. `policy` adds what one resource needs.
 */
export function checkRule(text: string, policy: RulePolicy = {}): RuleCheck {
  const checked = checkedRules.memo(text);
  if (checked.problem !== undefined) return checked;
  const { maxCount } = policy;
  if (maxCount !== undefined && checked.rule.count && checked.rule.count > maxCount) {
    return { problem: `The rrule COUNT may not be greater than ${maxCount}.` };
  }
  return checked;
}

/** The rule's options, or undefined when `checkRule` finds a problem with it. */
export function parseRule(text: string, policy?: RulePolicy): Readonly<Partial<RRuleOptions>> | undefined {
  return checkRule(text, policy).rule;
}

/** Parsing (and trying) a rule costs more than expanding a week of it; the same few texts recur. */
const checkedRules = new LRUCache<string, RuleCheck>({ max: 1000, memoMethod: checkRuleText });

function checkRuleText(text: string): RuleCheck {
  const body = ruleBody(text);
  const parts = body.split(';').map((part) => part.split('=')[0].trim().toUpperCase());
  if (body.startsWith('DTSTART')) return { problem: REFUSED_PARTS.DTSTART };
  if (body.includes('\n') || !parts.includes('FREQ')) return { problem: NOT_A_RULE };
  const refused = parts.find((part) => part in REFUSED_PARTS);
  if (refused) return { problem: REFUSED_PARTS[refused] };
  let rule: Partial<RRuleOptions>;
  try {
    rule = RRule.parseString(body);
  } catch {
    return { problem: NOT_A_RULE };
  }
  if (rule.freq === undefined || !ALLOWED_FREQUENCIES.has(rule.freq)) {
    return { problem: 'The rrule must have a FREQ of DAILY, WEEKLY, MONTHLY or YEARLY.' };
  }
  try {
    new RRule(rule).all((_date, index) => index < 1);
  } catch {
    return { problem: NOT_A_RULE };
  }
  return { rule: Object.freeze(rule) };
}
