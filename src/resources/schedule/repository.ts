import type { FastifyRequest } from 'fastify';
import type { DatabaseHandle } from '../../core/db/index.js';
import { jsonArrayFrom, parseJsonArray } from '../../core/db/json.js';
import { selectPrepared } from '../../core/db/prepared.js';
import { scheduleCallbackItems, scheduleCallbacksQuery } from '../callbacks/day-items.js';
import { notesByDate, notesQuery } from '../day-notes/repository.js';
import { scheduleMiscQuery } from '../misc-hours/repository.js';
import { scheduleTradeItems, scheduleTradesQuery } from '../trades/day-items.js';

type RowOf<Q extends { execute(): Promise<unknown[]> }> = Awaited<ReturnType<Q['execute']>>[number];

/**
 * What GET /schedule reads afresh on every build, in one statement (one round trip on PostgreSQL):
 * the period's callbacks and trades (local datetimes [start, end)), and the misc hours and notes
 * of its dates [firstDay, lastDay], each as a JSON array column.
 */

export async function scheduleDayItems(
  handle: DatabaseHandle,
  request: Pick<FastifyRequest, 'auth' | 'baseUrl'>,
  period: { start: string; end: string; firstDay: string; lastDay: string },
) {
  const { db } = handle;
  const orgId = request.auth.orgId;
  const callbacks = scheduleCallbacksQuery(db, orgId, period.start, period.end);
  const trades = scheduleTradesQuery(db, orgId, period.start, period.end);
  const misc = scheduleMiscQuery(db, orgId, period.firstDay, period.lastDay);
  const notes = notesQuery(db, orgId, period.firstDay, period.lastDay);
  // the same text whatever the period (values are bound): planned once per connection on PostgreSQL
  const [row] = await selectPrepared(
    handle,
    db.selectNoFrom([
      jsonArrayFrom(db, callbacks).as('callbacks'),
      jsonArrayFrom(db, trades).as('trades'),
      jsonArrayFrom(db, misc).as('misc'),
      jsonArrayFrom(db, notes).as('notes'),
    ]),
  );
  if (!row) throw new Error('the schedule day items statement returned no row');
  return {
    callbacks: scheduleCallbackItems(request, parseJsonArray<RowOf<typeof callbacks>>(row.callbacks)),
    trades: scheduleTradeItems(request, parseJsonArray<RowOf<typeof trades>>(row.trades)),
    misc: parseJsonArray<RowOf<typeof misc>>(row.misc),
    notes: notesByDate(parseJsonArray<RowOf<typeof notes>>(row.notes)),
  };
}
