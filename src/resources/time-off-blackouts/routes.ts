import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { logAction } from '../../core/audit.js';
import { withTransaction } from '../../core/db/transaction.js';
import { checkAll, invalidParams } from '../../core/errors.js';
import { created, EXTENSION, IdParams, ok, routeOptions, SuccessBody, SuccessWithId } from '../../core/schemas.js';
import { nowUtc } from '../../core/time.js';
import { findTimeOffTypeOrInvalid } from '../time-off-types/repository.js';
import { deleteBlackoutRow, findBlackoutOrThrow, insertBlackout, listBlackouts } from './repository.js';
import { BlackoutBody, BlackoutQuery, BlackoutResponse } from './schemas.js';
import type { TimeOffBlackoutRow } from './table.js';

const tags = ['Time off types'];
const route = routeOptions(tags);

const serialize = (row: TimeOffBlackoutRow): BlackoutResponse => ({
  id: row.id,
  time_off_type_id: row.time_off_type_id,
  start_date: row.start_date,
  end_date: row.end_date,
  reason: row.reason,
});

const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/time_off_blackouts',
    route('listTimeOffBlackouts', 'Blackout dates of the time off types (extension)', {
      ...EXTENSION,
      description: 'Dates on which time off of a type may not be requested (docs/contract-rules.md).',
      querystring: BlackoutQuery,
      response: { 200: Type.Array(BlackoutResponse) },
    }),
    async (request) => (await listBlackouts(app.db, request.auth.orgId, request.query.time_off_type_id)).map(serialize),
  );

  app.post(
    '/time_off_blackouts',
    route('createTimeOffBlackout', 'Adds blackout dates to a time off type (extension)', {
      ...EXTENSION,
      body: BlackoutBody,
      response: { 201: SuccessWithId },
    }),
    async (request, reply) => {
      const body = request.body;
      const id = await withTransaction(app.db, async (trx) => {
        const [type] = await checkAll([
          () => findTimeOffTypeOrInvalid(trx, request.auth.orgId, body.time_off_type_id),
          () => {
            if (body.end_date < body.start_date)
              throw invalidParams('The end date must be on or after the start date.');
          },
        ] as const);
        const values = {
          organization_id: request.auth.orgId,
          time_off_type_id: type.id,
          start_date: body.start_date,
          end_date: body.end_date,
          reason: body.reason ?? null,
          created_at: nowUtc(),
        };
        const blackoutId = await insertBlackout(trx, values);
        await logAction(trx, request.auth, 'time_off_blackout.created', blackoutId, {
          description: `blacked out ${type.label} from ${body.start_date} to ${body.end_date}.`,
          after: { ...values, organization_id: undefined },
        });
        return blackoutId;
      });
      reply.status(201);
      return created('Blackout dates added successfully.', { id });
    },
  );

  app.delete(
    '/time_off_blackouts/:id',
    route('deleteTimeOffBlackout', 'Removes blackout dates (extension)', {
      ...EXTENSION,
      params: IdParams,
      response: { 200: SuccessBody },
    }),
    async (request) => {
      await withTransaction(app.db, async (trx) => {
        const row = await findBlackoutOrThrow(trx, request.auth.orgId, request.params.id);
        await deleteBlackoutRow(trx, request.auth.orgId, row.id);
        await logAction(trx, request.auth, 'time_off_blackout.deleted', row.id, {
          description: `removed the blackout of ${row.start_date} to ${row.end_date}.`,
          before: row,
        });
      });
      return ok('Blackout dates removed successfully.');
    },
  );
};

export default routes;
