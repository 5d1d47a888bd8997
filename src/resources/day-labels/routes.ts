import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { writeLog } from '../../core/audit.js';
import { withTransaction } from '../../core/db/transaction.js';
import { invalidParams, notFound } from '../../core/errors.js';
import { EXTENSION, ok, SuccessBody, routeOptions } from '../../core/schemas.js';
import { assertPeriod, MAX_SPAN_DAYS, parseDate, todayIn } from '../../core/time.js';
import { deleteDayLabel, findDayLabel, listDayLabels, upsertDayLabel } from './repository.js';
import { DateParams, DayLabelBody, DayLabelMap, DayLabelQuery, DayLabelWriteResponse } from './schemas.js';

const tags = ['Day labels'];
const route = routeOptions(tags);

function checkedPeriod(query: DayLabelQuery, timeZone: string): { start: string; end: string } {
  const today = todayIn(timeZone).toString();
  const start = query.start ?? today;
  const end = query.end ?? (query.start && query.start > today ? query.start : today);
  const startDate = parseDate(start);
  const endDate = parseDate(end);
  if (!startDate || !endDate) throw invalidParams('The start and end must be valid dates.');
  assertPeriod(start, end, { allowEqual: true });
  if (startDate.until(endDate).total({ unit: 'days' }) >= MAX_SPAN_DAYS) {
    throw invalidParams(`The period may not be longer than ${MAX_SPAN_DAYS} days.`);
  }
  return { start, end };
}

function assertRealDate(date: string) {
  if (!parseDate(date)) throw invalidParams(`The date ${date} is not a day of the calendar.`);
}

const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/day_labels',
    route(
      'listDayLabels',
      'Color and label per date (default: today in the organization zone); dates without a label are left out',
      { querystring: DayLabelQuery, response: { 200: DayLabelMap } },
    ),
    async (request) => {
      const { start, end } = checkedPeriod(request.query, request.auth.timezone);
      const rows = await listDayLabels(app.db, request.auth.orgId, start, end);
      return { days: Object.fromEntries(rows.map((row) => [row.date, { color: row.color, label: row.label }])) };
    },
  );

  app.put(
    '/day_labels/:date',
    route('setDayLabel', 'Sets the label and color of one date (extension)', {
      ...EXTENSION,
      params: DateParams,
      body: DayLabelBody,
      response: { 200: DayLabelWriteResponse },
    }),
    async (request) => {
      const { date } = request.params;
      assertRealDate(date);
      const { label, color } = request.body;
      await withTransaction(app.db, async (trx) => {
        const before = await findDayLabel(trx, request.auth.orgId, date);
        await upsertDayLabel(trx, request.auth.orgId, date, { label, color });
        await writeLog(trx, request.auth, {
          action: 'day_label.set',
          description: `set the day label of ${date} to ${label}`,
          entityType: 'day_label',
          entityId: date,
          before: before ? { label: before.label, color: before.color } : null,
          after: { label, color },
        });
      });
      return { ...ok(`Set the day label of ${date}.`), date };
    },
  );

  app.delete(
    '/day_labels/:date',
    route('deleteDayLabel', 'Removes the label of one date (extension)', {
      ...EXTENSION,
      params: DateParams,
      response: { 200: SuccessBody },
    }),
    async (request) => {
      const { date } = request.params;
      await withTransaction(app.db, async (trx) => {
        const existing = await findDayLabel(trx, request.auth.orgId, date);
        if (!existing) throw notFound('DayLabel');
        await deleteDayLabel(trx, request.auth.orgId, date);
        await writeLog(trx, request.auth, {
          action: 'day_label.deleted',
          description: `removed the day label ${existing.label} of ${date}`,
          entityType: 'day_label',
          entityId: date,
          before: { label: existing.label, color: existing.color },
        });
      });
      return ok(`Removed the day label of ${date}.`);
    },
  );
};

export default routes;
