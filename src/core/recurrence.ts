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
const rrule = ((rruleModule as unknown as { default?: typeof rruleModule }).default ?? rruleModule) as typeof rruleModule;

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
