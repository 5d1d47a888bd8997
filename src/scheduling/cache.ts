import type { Statement } from 'better-sqlite3';
import { CompiledQuery } from 'kysely';
import { LRUCache } from 'lru-cache';
import { subscribeToChanges, type ChangeSubscription } from '../core/db/change-listener.js';
import type { DatabaseHandle } from '../core/db/index.js';
import { ENGINE_TABLES } from '../core/db/migrations/1000-schedule-changes.js';
import { KEPT_ROWS, USER_TABLES } from '../core/db/migrations/1120-schedule-user-changes.js';
import { GROUP_STAFFING_TABLES } from '../core/db/migrations/1660-off-limits-and-group-minimums.js';

/**
 * What the scheduling engine computed, kept while nothing it reads has changed
 * (docs/decisions/0026-schedule-computed-days.md): GET /schedule's days (period-days.ts, rendered
 * by resources/schedule) and the staffing of GET /vacancies and the candidates route
 * (vacancies.ts). A write to a table outside WATCHED_TABLES (day notes, misc hours, callbacks,
 * trades: read afresh on every request) leaves it standing. A write to a user's shifts or time off
 * (USER_TABLES, migration 1120) names the user: a schedule period is patched for that user, other
 * entries are computed anew. A write to any other watched table drops the organization's entries,
 * in every process:
 *
 * - SQLite: the stamp is the organization's count of such writes (`schedule_change`, kept by
 *   migration 1100's triggers in plain SQL, whichever connection wrote) and the connection's
 *   `data_version` read with the bearer token, which moves when another connection (the CLI,
 *   another process, the `sqlite3` shell) commits anything. The users changed since are the rows
 *   of `schedule_user_change` after the entry's.
 * - PostgreSQL: the stamp is the number of announcements `schedule <organization>` heard (migration
 *   1000's triggers, sent at commit), read after a round trip on the listening connection that
 *   brings in everything committed before the request; nothing is served while it cannot listen.
 *   The users changed since are the announcements `schedule <organization> <user>` heard after the
 *   entry's.
 *
 * The stamp is taken before the engine reads, so an entry is never newer than its stamp says.
 * Every table the engine reads (reads.ts) must be watched: cache-coverage.test.ts reads the query
 * log of the cached requests and fails on a table read on a miss that is not.
 */

/** The tables whose writes drop (or, for USER_TABLES, patch) the entries: migration 1000's and 1660's triggers. */
export const WATCHED_TABLES: readonly string[] = [...ENGINE_TABLES, ...GROUP_STAFFING_TABLES, 'organization'];
export { USER_TABLES };

/** What an entry computed from now on is valid under: everything but users' changes, and those up to `seq`. */
export interface Stamp {
  base: string;
  seq: number;
}

interface Entry {
  value: unknown;
  stamp: Stamp;
  bytes: number;
}

/** A kept value, and the users whose shifts or time off changed since it was computed (none: it holds). */
export interface Kept<V> {
  value: V;
  changedUsers: number[] | undefined;
}

/** SQLite: the organization's count of changes and the latest user's change (one `?`: the organization). */
const CHANGES_SQL = `select (select changes from schedule_change where organization_id = ?) as changes,
  (select max(seq) from schedule_user_change) as seq`;

export class EngineCache {
  private readonly entries: LRUCache<string, Entry> | undefined;
  private readonly subscription: ChangeSubscription | undefined;
  /** PostgreSQL: announcements heard per organization; losses of the listener. */
  private readonly heard = new Map<number, number>();
  /** PostgreSQL: the latest users' changes heard (at most KEPT_ROWS), each numbered from 1 in `userSeq`. */
  private readonly userChanges: Array<{ seq: number; organizationId: number; userId: number }> = [];
  private userSeq = 0;
  private epoch = 0;
  private listening = false;
  private changes: Statement | undefined;
  private changedUsers: Statement | undefined;

  constructor(
    private readonly handle: DatabaseHandle,
    maxBytes: number,
  ) {
    if (maxBytes <= 0) return;
    this.entries = new LRUCache<string, Entry>({
      maxSize: maxBytes,
      // larger than a quarter of the budget: not kept
      maxEntrySize: Math.max(1, Math.floor(maxBytes / 4)),
      sizeCalculation: (entry) => Math.max(1, entry.bytes),
    });
    if (handle.dialect === 'postgres') {
      this.subscription = subscribeToChanges(handle, {
        onListening: (listening) => {
          this.listening = listening;
          this.epoch += 1;
          this.entries?.clear();
        },
        onNotice: (notice) => {
          if (notice.kind !== 'schedule') return;
          const { organizationId, userId } = notice;
          if (userId === undefined) {
            this.heard.set(organizationId, (this.heard.get(organizationId) ?? 0) + 1);
            return;
          }
          this.userSeq += 1;
          this.userChanges.push({ seq: this.userSeq, organizationId, userId });
          if (this.userChanges.length > 2 * KEPT_ROWS) this.userChanges.splice(0, KEPT_ROWS);
        },
      });
    }
  }

  async close(): Promise<void> {
    await this.subscription?.close();
  }

  /**
   * What an entry computed from now on for the organization is valid under, or undefined when
   * nothing may be kept. `dataRevision`: SQLite's data_version read with the credential.
   */
  async stamp(orgId: number, dataRevision: number | undefined): Promise<Stamp | undefined> {
    if (!this.entries) return undefined;
    if (this.handle.dialect === 'sqlite') {
      if (dataRevision === undefined) return undefined;
      const { changes, seq } = await this.sqliteChanges(orgId);
      return { base: `${dataRevision}:${changes}`, seq };
    }
    if (!this.listening || !(await this.subscription!.sync()) || !this.listening) return undefined;
    return { base: `${this.epoch}:${this.heard.get(orgId) ?? 0}`, seq: this.userSeq };
  }

  /**
   * SQLite: the organization's committed count of changes, and the latest user's change. Read
   * straight from the connection (no statement of the request's) unless a transaction is open on
   * it: what that transaction wrote may still be rolled back, so the read then waits its turn.
   */
  private async sqliteChanges(orgId: number): Promise<{ changes: number; seq: number }> {
    const sqlite = this.handle.sqlite!;
    type Row = { changes: number | null; seq: number | null };
    let row: Row;
    if (!sqlite.inTransaction) {
      this.changes ??= sqlite.prepare(CHANGES_SQL);
      row = this.changes.get(orgId) as Row;
    } else {
      row = (await this.handle.db.executeQuery<Row>(CompiledQuery.raw(CHANGES_SQL, [orgId]))).rows[0]!;
    }
    return { changes: row.changes ?? 0, seq: row.seq ?? 0 };
  }

  /** The users of the organization whose shifts or time off changed after `from` up to `to`; undefined: not known. */
  private async usersChanged(orgId: number, from: number, to: number): Promise<number[] | undefined> {
    if (to - from >= KEPT_ROWS) return undefined;
    if (this.handle.dialect === 'postgres') {
      const oldest = this.userChanges[0]?.seq ?? to + 1;
      if (oldest > from + 1) return undefined;
      const users = this.userChanges.filter((c) => c.seq > from && c.seq <= to && c.organizationId === orgId);
      return [...new Set(users.map((c) => c.userId))];
    }
    this.changedUsers ??= this.handle
      .sqlite!.prepare(
        'select distinct user_id from schedule_user_change where seq > ? and seq <= ? and organization_id = ?',
      )
      .pluck();
    return this.changedUsers.all(from, to, orgId) as number[];
  }

  /**
   * The value kept under `key`, if it still holds or can be patched, with the users to patch it for.
   * Keys start with what kind of value they name (`schedule|`, `staffing|`) and the organization.
   */
  async get<V>(orgId: number, key: string, stamp: Stamp | undefined): Promise<Kept<V> | undefined> {
    if (stamp === undefined) return undefined;
    const entry = this.entries?.get(key);
    if (entry?.stamp.base !== stamp.base || entry.stamp.seq > stamp.seq) return undefined;
    if (entry.stamp.seq === stamp.seq) return { value: entry.value as V, changedUsers: undefined };
    const users = await this.usersChanged(orgId, entry.stamp.seq, stamp.seq);
    if (users === undefined) return undefined;
    // changes of other organizations only: the entry holds under the new stamp
    if (users.length === 0) entry.stamp = stamp;
    return { value: entry.value as V, changedUsers: users.length > 0 ? users : undefined };
  }

  /** Keeps `value` (about `bytes` large) under `key`, valid under `stamp`. */
  set(key: string, stamp: Stamp | undefined, value: unknown, bytes: number): void {
    if (stamp === undefined || !this.entries) return;
    this.entries.set(key, { value, stamp, bytes });
  }
}
