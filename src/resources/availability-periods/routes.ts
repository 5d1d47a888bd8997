import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { withTransaction } from '../../core/db/transaction.js';
import { created, EXTENSION, IdParams, SuccessBody, SuccessWithId, routeOptions } from '../../core/schemas.js';
import { assertPeriod, normalizeLocalDateTime } from '../../core/time.js';
import { findUsersByIds } from '../users/repository.js';
import { userRef } from '../users/serialize.js';
import { findReasonsByIds, listPeriods, listReasons } from './repository.js';
import { checkPeriodFields, createPeriod, createReason, deletePeriod, deleteReason, renameReason } from './rules.js';
import {
  CreatePeriodBody,
  PeriodResponse,
  PeriodsQuery,
  ReasonBody,
  ReasonPatchBody,
  ReasonResponse,
} from './schemas.js';
import { changedWithId, createdWithId, deletedOk } from '../../core/write-handlers.js';

const tags = ['Availability'];
const route = routeOptions(tags);

const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/availability_periods',
    route('listAvailabilityPeriods', 'Periods of unavailability overlapping [start, end)', {
      querystring: PeriodsQuery,
      response: { 200: Type.Array(PeriodResponse) },
    }),
    async (request) => {
      const { orgId } = request.auth;
      const start = normalizeLocalDateTime(request.query.start);
      const end = normalizeLocalDateTime(request.query.end);
      assertPeriod(start, end);
      const periods = await listPeriods(app.db, orgId, start, end);
      const [users, reasons] = await Promise.all([
        findUsersByIds(
          app.db,
          orgId,
          periods.flatMap((p) => [p.user_id, p.admin_id]),
        ),
        findReasonsByIds(
          app.db,
          orgId,
          periods.flatMap((p) => (p.unavailability_reason_id === null ? [] : [p.unavailability_reason_id])),
        ),
      ]);
      return periods
        .filter((period) => users.has(period.user_id) && users.has(period.admin_id))
        .map((period) => {
          const reason =
            period.unavailability_reason_id === null ? undefined : reasons.get(period.unavailability_reason_id);
          return {
            id: period.id,
            user: userRef(request, users.get(period.user_id)!),
            start: period.start,
            end: period.end,
            admin: userRef(request, users.get(period.admin_id)!),
            notes: period.notes,
            unavailability_reason: reason ? { id: reason.id, name: reason.name } : null,
          };
        });
    },
  );

  app.post(
    '/availability_periods',
    {
      config: { ruleChecks: (request, accepted) => checkPeriodFields(app.db, request.auth.orgId, accepted) },
      ...route('createAvailabilityPeriod', 'Enters a period of unavailability for a user', {
        description: 'Without `admin_id` the period is entered by the user (the user shows as its admin).',
        body: CreatePeriodBody,
        response: { 201: SuccessWithId },
      }),
    },
    createdWithId(app.db, createPeriod, 'Availability period created successfully.'),
  );

  app.delete(
    '/availability_periods/:id',
    route('deleteAvailabilityPeriod', 'Removes an availability period (extension)', {
      ...EXTENSION,
      params: IdParams,
      response: { 200: SuccessBody },
    }),
    deletedOk(app.db, deletePeriod, 'Availability period removed successfully.'),
  );

  app.get(
    '/unavailability_reasons',
    route('listUnavailabilityReasons', 'Unavailability reasons (extension)', {
      ...EXTENSION,
      response: { 200: Type.Array(ReasonResponse) },
    }),
    async (request) =>
      (await listReasons(app.db, request.auth.orgId)).map((reason) => ({ id: reason.id, name: reason.name })),
  );

  app.post(
    '/unavailability_reasons',
    route('createUnavailabilityReason', 'Creates an unavailability reason (extension)', {
      ...EXTENSION,
      body: ReasonBody,
      response: { 201: SuccessWithId },
    }),
    async (request, reply) => {
      const id = await withTransaction(app.db, (trx) => createReason(trx, request.auth, request.body.name));
      reply.status(201);
      return created('Unavailability reason created successfully.', { id });
    },
  );

  app.patch(
    '/unavailability_reasons/:id',
    route('renameUnavailabilityReason', 'Renames an unavailability reason (extension)', {
      ...EXTENSION,
      params: IdParams,
      body: ReasonPatchBody,
      response: { 200: SuccessWithId },
    }),
    changedWithId(app.db, renameReason, 'Unavailability reason updated successfully.'),
  );

  app.delete(
    '/unavailability_reasons/:id',
    route('deleteUnavailabilityReason', 'Soft-deletes an unavailability reason (extension)', {
      ...EXTENSION,
      params: IdParams,
      response: { 200: SuccessBody },
    }),
    deletedOk(app.db, deleteReason, 'Unavailability reason removed successfully.'),
  );
};

export default routes;
