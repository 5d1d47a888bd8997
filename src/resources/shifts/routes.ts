import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AuthContext } from '../../core/auth/context.js';
import { withTransaction, type Db } from '../../core/db/transaction.js';
import { errorResponses, IdParams, SuccessBody } from '../../core/schemas.js';
import { findUsersByIds } from '../users/repository.js';
import { findShiftOrThrow, listShiftsOfUser } from './repository.js';
import { tagsOfShifts, workTypesByIds } from '../../scheduling/index.js';
import { changeShift, checkShiftFields, createShift, removeFromCatalog, removeShift, replaceCatalog } from './rules.js';
import {
  CreateShiftBody,
  IdsBody,
  LabelParams,
  ListShiftsQuery,
  QualifierParams,
  ShiftLabel,
  ShiftQualifier,
  ShiftResponse,
  UpdateShiftBody,
} from './schemas.js';
import { labelItem, qualifierItem, serializeShift } from './serialize.js';
import type { ShiftRow } from './table.js';
import { deletedOk } from '../../core/write-handlers.js';

const tags = ['Shifts'];

interface Caller {
  auth: AuthContext;
  baseUrl: string;
}

/** Serializes shifts with their users, work types, labels and qualifiers in a constant number of queries. */
async function serializeShifts(db: Db, request: Caller, rows: ShiftRow[]) {
  const orgId = request.auth.orgId;
  const ids = rows.map((r) => r.id);
  const [users, workTypes, tags] = await Promise.all([
    findUsersByIds(
      db,
      orgId,
      rows.flatMap((r) => [r.user_id, r.scheduled_by ?? 0]),
    ),
    workTypesByIds(
      db,
      orgId,
      rows.map((r) => r.work_type_id),
    ),
    tagsOfShifts(db, orgId, ids),
  ]);
  const labels = [...tags.labels.values()].flat();
  const qualifiers = [...tags.qualifiers.values()].flat();
  const context = { timezone: request.auth.timezone, users, workTypes: workTypes.types, labels, qualifiers };
  return rows.map((row) => serializeShift(request, row, context));
}

const loadShift = async (db: Db, request: Caller, id: number) =>
  (await serializeShifts(db, request, [await findShiftOrThrow(db, request.auth.orgId, id)]))[0]!;

const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/shifts',
    {
      schema: {
        operationId: 'listShifts',
        summary: 'One-off shifts of a user',
        description: 'Optional start/end (extension) keep only shifts overlapping the period.',
        tags,
        querystring: ListShiftsQuery,
        response: { 200: Type.Array(ShiftResponse), ...errorResponses },
      },
    },
    async (request) => {
      const { user_id: userId, start, end } = request.query;
      return serializeShifts(
        app.db,
        request,
        await listShiftsOfUser(app.db, request.auth.orgId, userId, { start, end }),
      );
    },
  );

  app.post(
    '/shifts',
    {
      // a body the schema refused in part still hears of its other fields' problems (src/core/errors.ts)
      config: { ruleChecks: (request, accepted) => checkShiftFields(app.db, request.auth, accepted) },
      schema: {
        operationId: 'createShift',
        summary: 'Schedules a one-off shift',
        description:
          '422 when the user already works overlapping hours, or is on approved time off (unless force is true).',
        tags,
        body: CreateShiftBody,
        response: { 201: ShiftResponse, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { row, context } = await withTransaction(app.db, (trx) => createShift(trx, request.auth, request.body));
      reply.status(201);
      return serializeShift(request, row, { ...context, timezone: request.auth.timezone });
    },
  );

  app.get(
    '/shifts/:id',
    {
      schema: {
        operationId: 'getShift',
        summary: 'One one-off shift',
        tags,
        params: IdParams,
        response: { 200: ShiftResponse, ...errorResponses },
      },
    },
    async (request) => loadShift(app.db, request, request.params.id),
  );

  app.patch(
    '/shifts/:id',
    {
      // a body the schema refused in part still hears of its other fields' problems (src/core/errors.ts)
      config: { ruleChecks: (request, accepted) => checkShiftFields(app.db, request.auth, accepted) },
      schema: {
        operationId: 'updateShift',
        summary: 'Changes a one-off shift; date, start and end are always required',
        tags,
        params: IdParams,
        body: UpdateShiftBody,
        response: { 200: ShiftResponse, ...errorResponses },
      },
    },
    async (request) =>
      withTransaction(app.db, async (trx) => {
        await changeShift(trx, request.auth, request.params.id, request.body);
        return loadShift(trx, request, request.params.id);
      }),
  );

  app.delete(
    '/shifts/:id',
    {
      schema: {
        operationId: 'deleteShift',
        summary: 'Removes a one-off shift permanently',
        tags,
        params: IdParams,
        response: { 200: SuccessBody, ...errorResponses },
      },
    },
    deletedOk(app.db, removeShift, 'Shift deleted successfully.'),
  );

  const catalogs = [
    { name: 'labels', model: 'Label', item: ShiftLabel, params: LabelParams, param: 'labelId' },
    { name: 'qualifiers', model: 'Qualifier', item: ShiftQualifier, params: QualifierParams, param: 'qualifierId' },
  ] as const;

  for (const catalog of catalogs) {
    const title = catalog.name === 'labels' ? 'Labels' : 'Qualifiers';
    const current = async (db: Db, request: Caller, shiftId: number) => {
      await findShiftOrThrow(db, request.auth.orgId, shiftId);
      const tags = await tagsOfShifts(db, request.auth.orgId, [shiftId]);
      return catalog.name === 'labels'
        ? (tags.labels.get(shiftId) ?? []).map((l) => labelItem(request, l))
        : (tags.qualifiers.get(shiftId) ?? []).map((q) => qualifierItem(request, q));
    };
    const response = { 200: Type.Array(catalog.item), ...errorResponses };

    app.get(
      `/shifts/:id/${catalog.name}`,
      { schema: { operationId: `getShift${title}`, summary: `${title} of a shift`, tags, params: IdParams, response } },
      async (request) => current(app.db, request, request.params.id),
    );

    app.post(
      `/shifts/:id/${catalog.name}`,
      {
        schema: {
          operationId: `replaceShift${title}`,
          summary: `Replaces the ${catalog.name} of a shift (body: a bare array of ids); answers the new list`,
          tags,
          params: IdParams,
          body: IdsBody,
          response,
        },
      },
      async (request) =>
        withTransaction(app.db, async (trx) => {
          await replaceCatalog(trx, request.auth, request.params.id, catalog.name, request.body);
          return current(trx, request, request.params.id);
        }),
    );

    app.delete(
      `/shifts/:id/${catalog.name}`,
      {
        schema: {
          operationId: `removeAllShift${title}`,
          summary: `Removes every one of the shift's ${catalog.name}`,
          tags,
          params: IdParams,
          response,
        },
      },
      async (request) =>
        withTransaction(app.db, async (trx) => {
          await replaceCatalog(trx, request.auth, request.params.id, catalog.name, []);
          return current(trx, request, request.params.id);
        }),
    );

    app.delete(
      `/shifts/:id/${catalog.name}/:${catalog.param}`,
      {
        schema: {
          operationId: `removeShift${title.slice(0, -1)}`,
          summary: `Removes one of the shift's ${catalog.name}`,
          tags,
          params: catalog.params,
          response,
        },
      },
      async (request) =>
        withTransaction(app.db, async (trx) => {
          const params = request.params as { id: number; labelId?: number; qualifierId?: number };
          await removeFromCatalog(trx, request.auth, params.id, catalog.name, (params.labelId ?? params.qualifierId)!);
          return current(trx, request, params.id);
        }),
    );
  }
};

export default routes;
