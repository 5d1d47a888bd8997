import { invalidParams } from '../../core/errors.js';
import { isLocalDateTime, localToZoned, normalizeLocalDateTime } from '../../core/time.js';

/** The years a work period may start in: overtime is counted from the start, period by period. */
export const START_YEARS = { first: 1970, last: 2100 } as const;

/**
 * The rules of a work period's start the schema cannot state (issue 41, F17): a year from 1970 to
 * 2100, and a wall-clock time that exists in the organization's zone (not one the clocks skip when
 * they spring forward). A start the schema refused is left to its message.
 */
export function checkWorkPeriodStart(start: string | undefined, timeZone: string): void {
  if (start === undefined || !isLocalDateTime(start)) return;
  const local = normalizeLocalDateTime(start);
  const year = Number(local.slice(0, 4));
  if (year < START_YEARS.first || year > START_YEARS.last)
    throw invalidParams(`The start must be in the years ${START_YEARS.first} to ${START_YEARS.last}.`);
  const zoned = localToZoned(local, timeZone);
  const read = normalizeLocalDateTime(zoned.toPlainDateTime().toString());
  if (read !== local)
    throw invalidParams(`The start ${local} does not exist in ${timeZone}: the clocks skip it (daylight saving time).`);
}
