import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { withTransaction } from '../../core/db/transaction.js';
import { created, ok, SuccessWith, UserIdParams, routeOptions } from '../../core/schemas.js';
import { assertPeriod, formatLocalDateTime, normalizeLocalDateTime, todayIn } from '../../core/time.js';
import { loadRelated } from '../time-offs/listing.js';
import { occurrencesInRange } from '../../scheduling/recurrence.js';
import { listTimeOffsOverlapping } from '../time-offs/repository.js';
import { leaveInput } from '../time-offs/dates.js';
import { createTimeOffWithNotices, editRequest } from '../time-offs/rules.js';
import { OffLimitWarnings, withWarnings } from '../time-offs/limits.js';
import { UserTimeOffItem } from '../time-offs/schemas.js';
import { serializeUserTimeOff } from '../time-offs/serialize.js';
import { APPROVED, PENDING } from '../time-offs/table.js';
import { findUserOrThrow } from '../users/repository.js';
import { EditRequestBody, RequestTimeOffBody, UserTimeOffParams, UserTimeOffsQuery } from './schemas.js';

const tags = ['Users', 'Time off'];
const route = routeOptions(tags);
const optionalDateTime = (value: string | undefined) =>
  value === undefined ? undefined : normalizeLocalDateTime(value);

/** Defaults: from the start of the day one month ago to the end of today. */
function periodOf(query: UserTimeOffsQuery, timeZone: string) {
  const today = todayIn(timeZone);
  const start = optionalDateTime(query.start) ?? formatLocalDateTime(today.subtract({ months: 1 }).toPlainDateTime());
  const end = optionalDateTime(query.end) ?? formatLocalDateTime(today.add({ days: 1 }).toPlainDateTime());
  assertPeriod(start, end);
  return { start, end };
}

const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/users/:user_id/time_offs',
    route('listUserTimeOffs', "A user's time off entries overlapping a period (default: one month ago to today)", {
      description: 'One item per entry (not split), ids and status as strings, with `rrule` for recurring leave.',
      params: UserIdParams,
      querystring: UserTimeOffsQuery,
      response: { 200: Type.Array(UserTimeOffItem) },
    }),
    async (request) => {
      const { orgId, timezone } = request.auth;
      await findUserOrThrow(app.db, orgId, request.params.user_id);
      const { start, end } = periodOf(request.query, timezone);
      const statuses = request.query.status === undefined ? [PENDING, APPROVED] : [request.query.status];
      const rows = await listTimeOffsOverlapping(app.db, orgId, {
        start,
        end,
        statuses,
        userId: request.params.user_id,
      });
      const entries = rows.filter((entry) => occurrencesInRange(entry, start, end).length > 0);
      const related = await loadRelated(app.db, orgId, entries);
      return entries.map((entry) => serializeUserTimeOff(request, entry, related));
    },
  );

  app.post(
    '/users/:user_id/time_offs',
    route('requestUserTimeOff', 'Requests time off for the user (always pending)', {
      params: UserIdParams,
      body: RequestTimeOffBody,
      response: { 201: SuccessWith({ id: Type.Integer(), warnings: OffLimitWarnings }) },
    }),
    async (request, reply) => {
      const body = request.body;
      const { id, warnings } = await withTransaction(app.db, async (trx) => {
        await findUserOrThrow(trx, request.auth.orgId, request.params.user_id);
        return createTimeOffWithNotices(trx, request.auth, {
          userId: request.params.user_id,
          adminIds: body.admin_ids ?? [],
          ...leaveInput(body.start_date, body.end_date),
          typeId: body.time_off_type_id,
          status: PENDING,
          userNote: body.user_note ?? null,
          rrule: body.rrule ?? null,
          requestedByUser: true,
        });
      });
      reply.status(201);
      return withWarnings(created('Time off requested successfully.', { id }), warnings);
    },
  );

  app.patch(
    '/users/:user_id/time_offs/:id',
    route('editUserTimeOff', "Edits the user's pending time off request", {
      description:
        'Any subset of the request fields; only pending requests of this user can change (422 otherwise). ' +
        '`warnings` (extension) names the off limits the request as changed goes past, as on POST.',
      params: UserTimeOffParams,
      body: EditRequestBody,
      response: { 200: SuccessWith({ id: Type.Integer(), warnings: OffLimitWarnings }) },
    }),
    async (request) => {
      const { user_id: userId, id } = request.params;
      const body = request.body;
      const warnings = await withTransaction(app.db, async (trx) => {
        await findUserOrThrow(trx, request.auth.orgId, userId);
        // both ends as dates: date-only leave, as when requested (docs/time-off.md#date-only-leave)
        const dates =
          body.start_date !== undefined && body.end_date !== undefined
            ? leaveInput(body.start_date, body.end_date)
            : { start: optionalDateTime(body.start_date), end: optionalDateTime(body.end_date), dates: null };
        return editRequest(trx, request.auth, userId, id, {
          ...dates,
          typeId: body.time_off_type_id,
          userNote: body.user_note,
          rrule: body.rrule,
          adminIds: body.admin_ids,
        });
      });
      return withWarnings({ ...ok('Time off request updated successfully.'), id }, warnings);
    },
  );
};

export default routes;
