import ipaddr from 'ipaddr.js';
import { sql } from 'kysely';
import type { Db } from '../db/transaction.js';

/** Attempts per key in a window, kept in the database so that every server process shares them. */
export interface SignInAttemptTable {
  attempt_key: string;
  attempts: number;
  /** Epoch milliseconds (pg returns bigint as a string). */
  window_ends_at: number | string;
}

declare module '../db/types.js' {
  interface Database {
    sign_in_attempt: SignInAttemptTable;
  }
}

export interface AttemptLimit {
  max: number;
  windowMs: number;
}

export interface AttemptCount {
  /** Attempts in the window, this one included. */
  attempts: number;
  allowed: boolean;
  /** Seconds until the window ends (the lockout expires). */
  retryAfterSeconds: number;
}

/**
 * Counts one attempt for `key` in one statement (an upsert, atomic on both engines, so parallel
 * attempts through any number of processes are all counted). The window opens with the first
 * attempt; attempt max+1 and later are refused until it ends, then counting starts afresh.
 * Expired windows are removed as they pass.
 */
export async function countAttempt(db: Db, key: string, limit: AttemptLimit, now = Date.now()): Promise<AttemptCount> {
  await db.deleteFrom('sign_in_attempt').where('window_ends_at', '<=', now).execute();
  const ends = now + limit.windowMs;
  const row = await db
    .insertInto('sign_in_attempt')
    .values({ attempt_key: key, attempts: 1, window_ends_at: ends })
    .onConflict((conflict) =>
      conflict.column('attempt_key').doUpdateSet({
        attempts: sql<number>`case when sign_in_attempt.window_ends_at <= ${now}
          then 1 else sign_in_attempt.attempts + 1 end`,
        window_ends_at: sql<number>`case when sign_in_attempt.window_ends_at <= ${now}
          then ${ends} else sign_in_attempt.window_ends_at end`,
      }),
    )
    .returning(['attempts', 'window_ends_at'])
    .executeTakeFirstOrThrow();
  const attempts = Number(row.attempts);
  return {
    attempts,
    allowed: attempts <= limit.max,
    retryAfterSeconds: Math.max(1, Math.ceil((Number(row.window_ends_at) - now) / 1000)),
  };
}

/** Takes back one counted attempt (a sign-in that succeeded does not use up its address's budget). */
export async function uncountAttempt(db: Db, key: string): Promise<void> {
  await db
    .updateTable('sign_in_attempt')
    .set({ attempts: sql<number>`attempts - 1` })
    .where('attempt_key', '=', key)
    .where('attempts', '>', 0)
    .execute();
}

/**
 * The client an address budget counts: an IPv4 address, or the /64 network of an IPv6 address
 * (one subscriber's prefix: counting single IPv6 addresses would give a client 2^64 budgets). An
 * IPv4-mapped IPv6 address (`::ffff:203.0.113.7`) counts as its IPv4 address.
 */
export function addressBucket(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip;
  const address = ipaddr.process(ip);
  if (address.kind() === 'ipv4') return address.toString();
  const parts = (address as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16));
  return `${parts.join(':')}::/64`;
}
