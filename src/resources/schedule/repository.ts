import type { FastifyRequest } from 'fastify';
import type { DatabaseHandle } from '../../core/db/index.js';
import { jsonArrayFrom, parseJsonArray, type RowOf } from '../../core/db/json.js';
import { compiledOnceQuery } from '../../core/db/compiled-once.js';
import { selectPrepared } from '../../core/db/prepared.js';
import type { Db } from '../../core/db/transaction.js';
import { nowUtc } from '../../core/time.js';
import { scheduleCallbackItems, scheduleCallbacksQuery } from '../callbacks/day-items.js';
import { notesByDate, notesQuery } from '../day-notes/repository.js';
import { scheduleMiscQuery } from '../misc-hours/repository.js';
import { scheduleTradeItems, scheduleTradesQuery } from '../trades/day-items.js';

/**
 * What GET /schedule reads afresh on every build, in one statement (one round trip on PostgreSQL):
 * the period's callbacks and trades (local datetimes [start, end)), and the misc hours and notes
 * of its dates [firstDay, lastDay], each as a JSON array column. Built and compiled once
 * (core/db/compiled-once.ts): the same text whatever the period, planned once per connection on
 * PostgreSQL (selectPrepared).
 */
const dayItemsQuery = compiledOnceQuery(
  (db: Db, orgId: number, start: string, end: string, firstDay: string, lastDay: string, now: string) =>
    db.selectNoFrom([
      jsonArrayFrom(db, scheduleCallbacksQuery(db, orgId, start, end, now)).as('callbacks'),
      jsonArrayFrom(db, scheduleTradesQuery(db, orgId, start, end)).as('trades'),
      jsonArrayFrom(db, scheduleMiscQuery(db, orgId, firstDay, lastDay)).as('misc'),
      jsonArrayFrom(db, notesQuery(db, orgId, firstDay, lastDay)).as('notes'),
    ]),
);

export async function scheduleDayItems(
  handle: DatabaseHandle,
  request: Pick<FastifyRequest, 'auth' | 'baseUrl'>,
  period: { start: string; end: string; firstDay: string; lastDay: string },
) {
  const { start, end, firstDay, lastDay } = period;
  const [row] = await selectPrepared(
    handle,
    dayItemsQuery(handle.db, request.auth.orgId, start, end, firstDay, lastDay, nowUtc()),
  );
  if (!row) throw new Error('the schedule day items statement returned no row');
  return {
    callbacks: scheduleCallbackItems(request, parseJsonArray<RowOf<typeof scheduleCallbacksQuery>>(row.callbacks)),
    trades: scheduleTradeItems(request, parseJsonArray<RowOf<typeof scheduleTradesQuery>>(row.trades)),
    misc: parseJsonArray<RowOf<typeof scheduleMiscQuery>>(row.misc),
    notes: notesByDate(parseJsonArray<RowOf<typeof notesQuery>>(row.notes)),
  };
}
