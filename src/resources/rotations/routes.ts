import { withWarnings } from '../time-offs/limits.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { withTransaction, type Db } from '../../core/db/transaction.js';
import { EXTENSION, IdParams, ok, SuccessBody, routeOptions } from '../../core/schemas.js';
import { findUsersByIds } from '../users/repository.js';
import {
  exceptionsOf,
  findRecurringShiftOrThrow,
  findRotationOrThrow,
  findRotationsByIds,
  listRecurringShifts,
  listRotations,
} from './repository.js';
import {
  addException,
  createRecurringShift,
  createRotation,
  deleteRotation,
  editRecurringShift,
  endRecurringShift,
  removeException,
  renameRotation,
} from './rules.js';
import {
  EndSeriesQuery,
  ExceptionBody,
  ExceptionParams,
  ListRecurringShiftsQuery,
  RecurringShiftBody,
  RecurringShiftPatchBody,
  RecurringShiftResponse,
  RotationBody,
  RotationPatchBody,
  RotationResponse,
} from './schemas.js';
import { serializeRecurringShift, serializeRotation } from './serialize.js';
import type { RecurringShiftRow } from './table.js';
import { deletedOk } from '../../core/write-handlers.js';

const tags = ['Rotations'];
const route = routeOptions(tags);

const routes: FastifyPluginAsyncTypebox = async (app) => {
  async function serializeSeries(
    db: Db,
    request: { auth: { orgId: number }; baseUrl: string },
    rows: RecurringShiftRow[],
  ) {
    const orgId = request.auth.orgId;
    const [users, rotations, exceptions] = await Promise.all([
      findUsersByIds(
        db,
        orgId,
        rows.flatMap((r) => [r.user_id, r.scheduled_by ?? 0]),
      ),
      findRotationsByIds(db, orgId, [...new Set(rows.map((r) => r.rotation_id))]),
      exceptionsOf(
        db,
        orgId,
        rows.map((r) => r.id),
      ),
    ]);
    const context = { users, rotations: new Map(rotations.map((r) => [r.id, r])), exceptions };
    return rows.map((row) => serializeRecurringShift(request, row, context));
  }
  const loadSeries = async (db: Db, request: { auth: { orgId: number }; baseUrl: string }, id: number) =>
    (await serializeSeries(db, request, [await findRecurringShiftOrThrow(db, request.auth.orgId, id)]))[0]!;

  app.get(
    '/rotations',
    route('listRotations', 'Rotation patterns (extension)', {
      ...EXTENSION,
      response: { 200: Type.Array(RotationResponse) },
    }),
    async (request) => (await listRotations(app.db, request.auth.orgId)).map((row) => serializeRotation(request, row)),
  );

  app.post(
    '/rotations',
    route('createRotation', 'Creates a rotation from a preset or a pattern (extension)', {
      ...EXTENSION,
      body: RotationBody,
      response: { 201: RotationResponse },
    }),
    async (request, reply) => {
      const row = await withTransaction(app.db, async (trx) =>
        findRotationOrThrow(trx, request.auth.orgId, await createRotation(trx, request.auth, request.body)),
      );
      reply.status(201);
      return serializeRotation(request, row);
    },
  );

  app.get(
    '/rotations/:id',
    route('getRotation', 'One rotation (extension)', {
      ...EXTENSION,
      params: IdParams,
      response: { 200: RotationResponse },
    }),
    async (request) =>
      serializeRotation(request, await findRotationOrThrow(app.db, request.auth.orgId, request.params.id)),
  );

  app.patch(
    '/rotations/:id',
    route('renameRotation', 'Renames a rotation; only the fields sent change, its pattern never changes (extension)', {
      ...EXTENSION,
      params: IdParams,
      body: RotationPatchBody,
      response: { 200: RotationResponse },
    }),
    async (request) => {
      const row = await withTransaction(app.db, async (trx) => {
        await renameRotation(trx, request.auth, request.params.id, request.body);
        return findRotationOrThrow(trx, request.auth.orgId, request.params.id);
      });
      return serializeRotation(request, row);
    },
  );

  app.delete(
    '/rotations/:id',
    route('deleteRotation', 'Deletes a rotation no one is scheduled on (extension)', {
      ...EXTENSION,
      params: IdParams,
      response: { 200: SuccessBody },
    }),
    deletedOk(app.db, deleteRotation, 'Rotation deleted successfully.'),
  );

  app.get(
    '/recurring_shifts',
    route(
      'listRecurringShifts',
      'Recurring shifts (rotation memberships), optionally of one user or rotation (extension)',
      { ...EXTENSION, querystring: ListRecurringShiftsQuery, response: { 200: Type.Array(RecurringShiftResponse) } },
    ),
    async (request) => {
      const rows = await listRecurringShifts(app.db, request.auth.orgId, {
        userId: request.query.user_id,
        rotationId: request.query.rotation_id,
      });
      return serializeSeries(app.db, request, rows);
    },
  );

  app.post(
    '/recurring_shifts',
    route('createRecurringShift', 'Places a user on assignments following a rotation (extension)', {
      ...EXTENSION,
      body: RecurringShiftBody,
      response: { 201: RecurringShiftResponse },
    }),
    async (request, reply) => {
      const series = await withTransaction(app.db, async (trx) => {
        const { id, warnings } = await createRecurringShift(trx, request.auth, request.body);
        return withWarnings(await loadSeries(trx, request, id), warnings);
      });
      reply.status(201);
      return series;
    },
  );

  app.get(
    '/recurring_shifts/:id',
    route('getRecurringShift', 'One recurring shift with its exceptions (extension)', {
      ...EXTENSION,
      params: IdParams,
      response: { 200: RecurringShiftResponse },
    }),
    async (request) => loadSeries(app.db, request, request.params.id),
  );

  app.patch(
    '/recurring_shifts/:id',
    route(
      'updateRecurringShift',
      'Changes a recurring shift from effective_date on ("this and following") (extension)',
      {
        ...EXTENSION,
        description:
          'The series ends the day before effective_date (default today) and a new series with the change ' +
          'starts on it; the response is the series holding the change.',
        params: IdParams,
        body: RecurringShiftPatchBody,
        response: { 200: RecurringShiftResponse },
      },
    ),
    async (request) =>
      withTransaction(app.db, async (trx) => {
        const { id, warnings } = await editRecurringShift(trx, request.auth, request.params.id, request.body);
        return withWarnings(await loadSeries(trx, request, id), warnings);
      }),
  );

  app.delete(
    '/recurring_shifts/:id',
    route('endRecurringShift', 'Ends a recurring shift from effective_date on (extension)', {
      ...EXTENSION,
      params: IdParams,
      querystring: EndSeriesQuery,
      response: { 200: SuccessBody },
    }),
    async (request) => {
      await withTransaction(app.db, (trx) => endRecurringShift(trx, request.auth, request.params.id, request.query));
      return ok('Recurring shift ended successfully.');
    },
  );

  app.post(
    '/recurring_shifts/:id/exceptions',
    route('addRecurringShiftException', 'Removes or moves one occurrence ("this occurrence") (extension)', {
      ...EXTENSION,
      params: IdParams,
      body: ExceptionBody,
      response: { 201: RecurringShiftResponse },
    }),
    async (request, reply) => {
      const series = await withTransaction(app.db, async (trx) => {
        const warnings = await addException(trx, request.auth, request.params.id, request.body);
        return withWarnings(await loadSeries(trx, request, request.params.id), warnings);
      });
      reply.status(201);
      return series;
    },
  );

  app.delete(
    '/recurring_shifts/:id/exceptions/:date',
    route('removeRecurringShiftException', 'Restores the occurrence of a date (extension)', {
      ...EXTENSION,
      params: ExceptionParams,
      response: { 200: RecurringShiftResponse },
    }),
    async (request) =>
      withTransaction(app.db, async (trx) => {
        const warnings = await removeException(trx, request.auth, request.params.id, request.params.date);
        return withWarnings(await loadSeries(trx, request, request.params.id), warnings);
      }),
  );
};

export default routes;
