import type { Statement } from 'better-sqlite3';
import { LRUCache } from 'lru-cache';
import { subscribeToChanges, type ChangeSubscription } from '../../core/db/change-listener.js';
import type { DatabaseHandle } from '../../core/db/index.js';
import type { UserRow } from '../users/table.js';

/**
 * What the scheduling engine computed for GET /schedule, kept per period while nothing it reads has
 * changed (docs/decisions/0026-schedule-computed-days.md): each day's assignments with their
 * shifts and staffing, time off and Kelly days, already as JSON. A write to day notes, misc hours,
 * callbacks or trades (read afresh on every miss of the response cache) leaves it standing; a
 * write to any table the engine reads drops the organization's periods, in every process:
 *
 * - SQLite: the stamp is the organization's count of such writes (`schedule_change`, kept by
 *   migration 1100's triggers in plain SQL, whichever connection wrote) and the connection's
 *   `data_version` read with the bearer token, which moves when another connection (the CLI,
 *   another process, the `sqlite3` shell) commits anything.
 * - PostgreSQL: the stamp is the number of announcements `schedule <organization>` heard (migration
 *   1000's triggers, sent at commit), read after a round trip on the listening connection that
 *   brings in everything committed before the request; nothing is served while it cannot listen.
 *
 * The stamp is taken before the engine reads, so an entry is never newer than its stamp says.
 */

/** One day of a period as the engine computed it: JSON arrays, encoded. */
export interface ComputedDay {
  assignments: Buffer;
  timeOff: Buffer;
  /** absent on a day without Kelly days */
  kellyDays: Buffer | undefined;
}

export interface ComputedPeriod {
  days: ComputedDay[];
  /** the users the period names (deleted ones too), for the items read afresh (misc hours) */
  users: Map<number, UserRow>;
}

interface Entry extends ComputedPeriod {
  stamp: string;
  bytes: number;
}

/** A user row's share of an entry's size, roughly. */
const USER_BYTES = 600;

export class EngineCache {
  private readonly entries: LRUCache<string, Entry> | undefined;
  private readonly subscription: ChangeSubscription | undefined;
  /** PostgreSQL: announcements heard per organization; losses of the listener. */
  private readonly heard = new Map<number, number>();
  private epoch = 0;
  private listening = false;
  private changes: Statement | undefined;

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
          this.heard.set(notice.organizationId, (this.heard.get(notice.organizationId) ?? 0) + 1);
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
  async stamp(orgId: number, dataRevision: number | undefined): Promise<string | undefined> {
    if (!this.entries) return undefined;
    if (this.handle.dialect === 'sqlite') {
      if (dataRevision === undefined) return undefined;
      return `${dataRevision}:${await this.sqliteChanges(orgId)}`;
    }
    if (!this.listening || !(await this.subscription!.sync()) || !this.listening) return undefined;
    return `${this.epoch}:${this.heard.get(orgId) ?? 0}`;
  }

  /**
   * SQLite: the organization's committed count of changes. Read straight from the connection (no
   * statement of the request's) unless a transaction is open on it: what that transaction wrote
   * may still be rolled back, so the read then waits its turn behind it.
   */
  private async sqliteChanges(orgId: number): Promise<number> {
    const sqlite = this.handle.sqlite!;
    if (!sqlite.inTransaction) {
      this.changes ??= sqlite.prepare('select changes from schedule_change where organization_id = ?').pluck();
      return (this.changes.get(orgId) as number | undefined) ?? 0;
    }
    const row = await this.handle.db
      .selectFrom('schedule_change')
      .select('changes')
      .where('organization_id', '=', orgId)
      .executeTakeFirst();
    return row?.changes ?? 0;
  }

  get(key: string, stamp: string | undefined): ComputedPeriod | undefined {
    if (stamp === undefined) return undefined;
    const entry = this.entries?.get(key);
    return entry?.stamp === stamp ? entry : undefined;
  }

  set(key: string, stamp: string | undefined, period: ComputedPeriod): void {
    if (stamp === undefined || !this.entries) return;
    let bytes = period.users.size * USER_BYTES;
    for (const day of period.days)
      bytes += day.assignments.length + day.timeOff.length + (day.kellyDays?.length ?? 0) + 64;
    this.entries.set(key, { ...period, stamp, bytes });
  }
}
