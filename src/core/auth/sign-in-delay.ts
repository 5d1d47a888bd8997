import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../db/transaction.js';

/**
 * Progressive delay of sign-ins per key (an account, a known device), kept in the database so that
 * every server process shares it (docs/security.md, "Sign-in"). Each attempt is counted before its
 * password is checked; the first four failures cost nothing, then each attempt must wait out a
 * delay that doubles from 30 seconds to at most 15 minutes. An attempt made during the delay is
 * refused without being counted or checked. The count is forgotten a day after the last attempt,
 * or when the key signs in. Times are epoch milliseconds.
 */
export interface SignInDelayTable {
  attempt_key: string;
  failures: number;
  /** pg returns bigint as a string */
  blocked_until: number | string;
  forget_at: number | string;
}

declare module '../db/types.js' {
  interface Database {
    sign_in_delay: SignInDelayTable;
  }
}

/** The delay after each counted attempt: none for the first four, then 30 s doubling to 15 min. */
export const SIGN_IN_DELAYS_MS = [0, 0, 0, 0, 30_000, 60_000, 120_000, 240_000, 480_000, 900_000];
export const FORGET_AFTER_MS = 24 * 60 * 60_000;

export type DelayClaim = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** The attempt's count after this one: 1 once the earlier ones are forgotten. */
const nextCount = (now: number) => sql<number>`(case when forget_at <= ${now} then 1 else failures + 1 end)`;

/**
 * The delay after the `count`th attempt, from SIGN_IN_DELAYS_MS: one CASE of literals (no power()
 * on SQLite; PostgreSQL would type a CASE of parameters as text).
 */
function delayAfter(count: RawBuilder<number>): RawBuilder<number> {
  const steps = SIGN_IN_DELAYS_MS.slice(0, -1).map(
    (ms, index) => sql`when ${count} = ${sql.lit(index + 1)} then ${sql.lit(ms)}`,
  );
  return sql<number>`(case ${sql.join(steps, sql` `)} else ${sql.lit(SIGN_IN_DELAYS_MS.at(-1))} end)`;
}

/**
 * Counts an attempt for `key` unless it is delayed. One conditional UPDATE decides, so of parallel
 * attempts (any number of processes) only as many pass as the delays allow: each counted one
 * moves `blocked_until` before the next is judged (a row lock on PostgreSQL re-reads it).
 */
export async function claimSignInAttempt(db: Db, key: string, now = Date.now()): Promise<DelayClaim> {
  await db.deleteFrom('sign_in_delay').where('forget_at', '<=', now).where('blocked_until', '<=', now).execute();
  await db
    .insertInto('sign_in_delay')
    .values({ attempt_key: key, failures: 0, blocked_until: 0, forget_at: now + FORGET_AFTER_MS })
    .onConflict((conflict) => conflict.column('attempt_key').doNothing())
    .execute();
  const count = nextCount(now);
  const counted = await db
    .updateTable('sign_in_delay')
    .set({
      failures: count,
      blocked_until: sql<number>`cast(${now} as bigint) + ${delayAfter(count)}`,
      forget_at: now + FORGET_AFTER_MS,
    })
    .where('attempt_key', '=', key)
    .where('blocked_until', '<=', now)
    .returning('failures')
    .executeTakeFirst();
  if (counted) return { allowed: true };
  const row = await db
    .selectFrom('sign_in_delay')
    .select('blocked_until')
    .where('attempt_key', '=', key)
    .executeTakeFirst();
  const waitMs = Number(row?.blocked_until ?? now) - now;
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
}

/** Forgets the attempts of `key`: it signed in, or an operator set its password. */
export async function clearSignInDelay(db: Db, key: string): Promise<void> {
  await db.deleteFrom('sign_in_delay').where('attempt_key', '=', key).execute();
}

/** The account key of a sign-in: organization and username (any case). */
export const accountDelayKey = (organizationId: number, username: string) =>
  `account:${organizationId}:${username.toLowerCase()}`;

/** The key of a known device of a user (the nonce of its signed cookie). */
export const deviceDelayKey = (organizationId: number, userId: number, nonce: string) =>
  `device:${organizationId}:${userId}:${nonce}`;

/** Forgets the delays of a user's account and known devices: their password was set anew. */
export async function clearUserSignInDelays(
  db: Db,
  organizationId: number,
  userId: number,
  username: string,
): Promise<void> {
  await db
    .deleteFrom('sign_in_delay')
    .where((eb) =>
      eb.or([
        eb('attempt_key', '=', accountDelayKey(organizationId, username)),
        eb('attempt_key', 'like', `${deviceDelayKey(organizationId, userId, '')}%`),
      ]),
    )
    .execute();
}

const SECONDS = new Intl.NumberFormat('en', { style: 'unit', unit: 'second', unitDisplay: 'long' });
const MINUTES = new Intl.NumberFormat('en', { style: 'unit', unit: 'minute', unitDisplay: 'long' });

/**
 * A waiting time as people say it: "30 seconds" (under a minute, up to the next ten seconds),
 * "1 minute", "15 minutes" (whole minutes, rounded up).
 */
export function waitInWords(seconds: number): string {
  if (seconds <= 50) return SECONDS.format(Math.max(10, Math.ceil(seconds / 10) * 10));
  return MINUTES.format(Math.ceil(seconds / 60));
}
