import { deleteOrgRows, orgColumns, orgRows } from '../../core/db/org-rows.js';
import type { Db } from '../../core/db/transaction.js';
import { nowUtc } from '../../core/time.js';
import type { WorkItem } from '../../scheduling/index.js';
import {
  deleteException,
  deleteShift,
  exceptionsOf,
  insertShift,
  updateShift,
  upsertException,
} from '../callbacks/contracts.js';
import type { NewShift } from '../shifts/repository.js';
import type { TradePlacementTable } from './table.js';

type Kind = TradePlacementTable['kind'];

async function record(
  trx: Db,
  orgId: number,
  tradeId: number,
  kind: Kind,
  values: { shift_id?: number; recurring_shift_id?: number; date?: string; before?: unknown },
) {
  await trx
    .insertInto('trade_placement')
    .values({
      organization_id: orgId,
      trade_id: tradeId,
      kind,
      shift_id: values.shift_id ?? null,
      recurring_shift_id: values.recurring_shift_id ?? null,
      date: values.date ?? null,
      before: values.before === undefined || values.before === null ? null : JSON.stringify(values.before),
      created_at: nowUtc(),
    })
    .execute();
}

/** Inserts a one-off shift for the trade, recorded. */
export async function placeShift(trx: Db, orgId: number, tradeId: number, values: NewShift): Promise<number> {
  const id = await insertShift(trx, orgId, values);
  await record(trx, orgId, tradeId, 'inserted', { shift_id: id });
  return id;
}

/** Hands a one-off shift to another user (traded_with = whose it was), recorded. */
export async function reassignPlaced(trx: Db, orgId: number, tradeId: number, item: WorkItem, to: number) {
  await updateShift(trx, orgId, item.shift_id!, { user_id: to, traded_with: item.user_id });
  await record(trx, orgId, tradeId, 'reassigned', {
    shift_id: item.shift_id!,
    before: { user_id: item.user_id, traded_with: item.traded_with },
  });
}

/** Cuts a one-off shift to new hours (the part not traded), recorded with its hours before. */
export async function cutShift(
  trx: Db,
  orgId: number,
  tradeId: number,
  item: WorkItem,
  hours: { start: string; end: string; break_start: string | null; break_end: string | null; hold_over: number },
) {
  await updateShift(trx, orgId, item.shift_id!, hours);
  await record(trx, orgId, tradeId, 'changed', {
    shift_id: item.shift_id!,
    before: {
      start: item.start,
      end: item.end,
      break_start: item.break_start,
      break_end: item.break_end,
      hold_over: item.hold_over,
    },
  });
}

interface PriorException {
  kind: 'removed' | 'moved';
  assignment_id: number | null;
  start: string | null;
  end: string | null;
  reason: string | null;
}

/** Takes one rotation occurrence off (an exception of its date), recorded with the date's earlier exception. */
export async function removePlacedOccurrence(trx: Db, orgId: number, tradeId: number, item: WorkItem) {
  const prior = (await exceptionsOf(trx, orgId, [item.id])).find((e) => e.date === item.date);
  await upsertException(trx, orgId, {
    recurringShiftId: item.id,
    date: item.date,
    kind: 'removed',
    assignmentId: null,
    start: null,
    end: null,
    reason: `Trade #${tradeId}`,
  });
  const before: PriorException | null = prior
    ? {
        kind: prior.kind as PriorException['kind'],
        assignment_id: prior.assignment_id,
        start: prior.start,
        end: prior.end,
        reason: prior.reason,
      }
    : null;
  await record(trx, orgId, tradeId, 'removed', { recurring_shift_id: item.id, date: item.date, before });
}

/** The one-off shifts the trade placed or changed (they are the trade's own work, not a clash). */
export async function placedShiftIds(db: Db, orgId: number, tradeId: number): Promise<Set<number>> {
  const rows = await orgColumns(db, 'trade_placement', orgId, ['shift_id']).where('trade_id', '=', tradeId).execute();
  return new Set(rows.flatMap((row) => (row.shift_id === null ? [] : [row.shift_id])));
}

/**
 * Undoes what the trade placed, newest change first, and forgets the records: the schedule is as
 * before the trade filled. A shift since deleted is left deleted.
 */
export async function undoPlacements(trx: Db, orgId: number, tradeId: number): Promise<void> {
  const rows = await orgRows(trx, 'trade_placement', orgId)
    .where('trade_id', '=', tradeId)
    .orderBy('id', 'desc')
    .execute();
  for (const row of rows) {
    const before = row.before === null ? null : JSON.parse(row.before);
    if (row.kind === 'inserted') await deleteShift(trx, orgId, row.shift_id!);
    else if (row.kind === 'reassigned' || row.kind === 'changed') await updateShift(trx, orgId, row.shift_id!, before);
    else if (before === null) await deleteException(trx, orgId, row.recurring_shift_id!, row.date!);
    else
      await upsertException(trx, orgId, {
        recurringShiftId: row.recurring_shift_id!,
        date: row.date!,
        kind: before.kind,
        assignmentId: before.assignment_id,
        start: before.start,
        end: before.end,
        reason: before.reason,
      });
  }
  await deleteOrgRows(trx, 'trade_placement', orgId).where('trade_id', '=', tradeId).execute();
}
