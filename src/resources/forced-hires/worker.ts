import type { FastifyBaseLogger } from 'fastify';
import type { AuthContext } from '../../core/auth/context.js';
import { withTransaction, type Db } from '../../core/db/transaction.js';
import { ApiError } from '../../core/errors.js';
import { formatLocalDateTime, nowUtc, parseLocalDateTime, utcToLocal } from '../../core/time.js';
import { vacanciesOf } from '../../scheduling/index.js';
import { findOrganizationOrThrow } from '../organizations/repository.js';
import type { ForcedHireNotifier } from './notify.js';
import { enabledForcedLists, forcedListAssignments, unfilledCallback } from './repository.js';
import { forceHire, type ForcedHire } from './rules.js';
import type { ForcedListRow } from './table.js';

const BATCH = 50;

/** The worker acts as the system, not as an API client of the organization. */
function workerAuth(org: { id: number; name: string; timezone: string }): AuthContext {
  return { orgId: org.id, orgName: org.name, timezone: org.timezone, clientId: 'forced-hire-worker', credentialId: 0 };
}

/**
 * Starts forced hires by themselves (docs/contract-rules.md, "Forced hire"): for each forced list
 * that is `enabled`, every vacancy of the engine (as GET /vacancies) on one of its assignments
 * with an open seat, starting within `start_within_hours`, whose voluntary callback ended
 * unfilled (its list ran out or its deadline passed, fewer accepted than its positions) gets one
 * forced hire. `auto_key` (unique) and the assignment's lock keep it to one whatever the processes.
 */
export class ForcedHireWorker {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  private stopped = true;

  constructor(
    private readonly db: Db,
    /** tells the people forced (the POST /forced_hires route uses it too) */
    readonly notifier: ForcedHireNotifier,
    private readonly log: FastifyBaseLogger,
    private readonly options: { now?: () => string; pollMs?: number } = {},
  ) {}

  start(): void {
    if (!this.options.pollMs) return;
    this.stopped = false;
    this.schedule();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
    this.notifier.close();
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.runOnce()
        .catch((error: unknown) => this.log.error({ err: error }, 'forced hire pass failed'))
        .finally(() => {
          this.running = undefined;
          this.schedule();
        });
    }, this.options.pollMs);
    this.timer.unref();
  }

  /** One pass at `now` (UTC instant); answers the ids of the forced hires recorded. */
  async runOnce(now = (this.options.now ?? nowUtc)()): Promise<number[]> {
    const recorded: number[] = [];
    for (const list of await enabledForcedLists(this.db, BATCH)) {
      try {
        recorded.push(...(await this.passFor(list, now)));
      } catch (error) {
        this.log.error({ err: error, orgId: list.organization_id }, 'forced hire auto-start failed');
      }
    }
    return recorded;
  }

  private async passFor(list: ForcedListRow, now: string): Promise<number[]> {
    const orgId = list.organization_id;
    const assignmentIds = await forcedListAssignments(this.db, orgId, list.group_id);
    if (assignmentIds.length === 0) return [];
    const auth = workerAuth(await findOrganizationOrThrow(this.db, orgId));
    const from = utcToLocal(now, auth.timezone);
    const until = formatLocalDateTime(parseLocalDateTime(from)!.add({ hours: list.start_within_hours }));
    const vacancies = await vacanciesOf(this.db, orgId, { start: from, end: until }, auth.timezone, assignmentIds);
    const recorded: number[] = [];
    for (const vacancy of vacancies) {
      const span = {
        start: vacancy.staffing.short_from ?? vacancy.start,
        end: vacancy.staffing.short_until ?? vacancy.end,
      };
      if (vacancy.staffing.open <= 0 || span.start <= from || span.start > until) continue;
      const callback = await unfilledCallback(this.db, orgId, vacancy.assignment.id, span, now);
      if (!callback) continue;
      let hire: ForcedHire | null = null;
      try {
        hire = await withTransaction(this.db, (trx) =>
          forceHire(trx, auth, {
            assignment_id: vacancy.assignment.id,
            start: span.start,
            end: span.end,
            group_id: list.group_id,
            ordered_by: list.initiated_by,
            trigger: 'auto',
            callback_id: callback.id,
            auto_key: `${vacancy.assignment.id}@${vacancy.date}`,
          }),
        );
      } catch (error) {
        // filled meanwhile, or the unique auto_key taken by another process: nothing to do
        if (!(error instanceof ApiError) && !isUniqueViolation(error)) throw error;
        continue;
      }
      if (!hire) continue;
      recorded.push(hire.row.id);
      await this.notifier.tell(auth, hire);
    }
    return recorded;
  }
}

function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: string } | undefined)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}
