import type { FastifyBaseLogger } from 'fastify';
import type { AuthContext } from '../../../core/auth/context.js';
import { claimLease, releaseLease } from '../../../core/db/lease.js';
import { withTransaction, type Db } from '../../../core/db/transaction.js';
import { ApiError } from '../../../core/errors.js';
import { addDays, utcToLocal } from '../../../core/time.js';
import { vacanciesOf, type OccurrenceStaffing } from '../../../scheduling/index.js';
import {
  autoStartLists,
  autoStartsDue,
  claimVacancy,
  setStartedCallback,
  startedVacancies,
} from '../../callback-auto-start/repository.js';
import type { CallbackAutoStartRow } from '../../callback-auto-start/table.js';
import { findOrganizationOrThrow } from '../../organizations/repository.js';
import { startCallback } from '../rules.js';

const BATCH = 20;

/**
 * Starts callbacks by themselves (docs/workflows.md, "Auto-start"): for each organization that
 * turned it on, every vacancy of the scheduling engine on an assignment with a default list whose
 * short span starts within the next `within_days` gets one callback on that list, for its open
 * seats (at least one), ending at the vacancy's start. The organization's pass is leased, and
 * the vacancy is claimed in `callback_auto_started` (unique per assignment and date) in the same
 * transaction as the callback, so two processes never start two callbacks for one vacancy.
 */
export class AutoStarter {
  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    private readonly auth: (org: { id: number; name: string; timezone: string }) => AuthContext,
  ) {}

  /** One pass at `now` (UTC instant); answers the ids of the callbacks started. */
  async runOnce(now: string, leaseUntil: string): Promise<number[]> {
    const started: number[] = [];
    for (const due of await autoStartsDue(this.db, now, BATCH)) {
      // the settings as claimed: they may have changed since `due` was read
      const setting = await claimLease(this.db, 'callback_auto_start', due, now, leaseUntil, (eb) =>
        eb('enabled', '=', 1),
      );
      if (!setting) continue;
      try {
        started.push(...(await this.startFor(setting, now)));
      } catch (error) {
        this.log.error({ err: error, orgId: setting.organization_id }, 'callback auto-start failed');
      } finally {
        await releaseLease(this.db, 'callback_auto_start', setting);
      }
    }
    return started;
  }

  private async startFor(setting: CallbackAutoStartRow, now: string): Promise<number[]> {
    const orgId = setting.organization_id;
    const auth = this.auth(await findOrganizationOrThrow(this.db, orgId));
    const lists = new Map((await autoStartLists(this.db, orgId)).map((l) => [l.assignment_id, l.list_id]));
    if (lists.size === 0) return [];
    const from = utcToLocal(now, auth.timezone);
    const until = `${addDays(from.slice(0, 10), setting.within_days)}${from.slice(10)}`;
    const vacancies = (
      await vacanciesOf(this.db, orgId, { start: from, end: until }, auth.timezone, [...lists.keys()])
    ).filter((v) => spanOf(v).start > from && spanOf(v).start <= until);
    const done = await startedVacancies(this.db, orgId, [...new Set(vacancies.map((v) => v.date))]);
    const started: number[] = [];
    for (const vacancy of vacancies) {
      const key = { assignment_id: vacancy.assignment.id, date: vacancy.date };
      if (done.has(`${key.assignment_id}@${key.date}`)) continue;
      const span = spanOf(vacancy);
      try {
        const id = await withTransaction(this.db, async (trx) => {
          if (!(await claimVacancy(trx, orgId, key, now))) return null;
          const callback = await startCallback(trx, auth, {
            list_id: lists.get(key.assignment_id)!,
            initiated_by: setting.initiated_by,
            assignment_id: key.assignment_id,
            start: span.start,
            end: span.end,
            positions_to_fill: Math.max(1, vacancy.staffing.open),
            deadline: span.start,
            scheduled_to: now,
            notes: `Started by itself for the vacancy on ${vacancy.assignment.name}, ${vacancy.date}.`,
          });
          await setStartedCallback(trx, orgId, key, callback.id);
          return callback.id;
        });
        if (id !== null) started.push(id);
      } catch (error) {
        // a vacancy the callback cannot be started for (a list or admin removed since) is tried again next pass
        if (!(error instanceof ApiError)) throw error;
        this.log.warn({ err: error, orgId, vacancy: key }, 'callback auto-start skipped a vacancy');
      }
    }
    return started;
  }
}

/** The part of the occurrence that is short (all of it when the engine gives no narrower span). */
function spanOf(vacancy: OccurrenceStaffing): { start: string; end: string } {
  return {
    start: vacancy.staffing.short_from ?? vacancy.start,
    end: vacancy.staffing.short_until ?? vacancy.end,
  };
}
