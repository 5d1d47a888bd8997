import { assertPeriod } from '../../core/time.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { withTransaction } from '../../core/db/transaction.js';
import { IdParams, ok, SuccessBody, SuccessWithId, routeOptions } from '../../core/schemas.js';
import { findVisualCycleOrThrow, listVisualCycles } from './repository.js';
import { changeVisualCycle, createVisualCycle, deleteVisualCycle } from './rules.js';
import {
  ChangeVisualCycleBody,
  CreateVisualCycleBody,
  DeleteVisualCycleQuery,
  VisualCycleQuery,
  VisualCycleResponse,
} from './schemas.js';
import { serializeVisualCycle } from './serialize.js';
import { createdWithId } from '../../core/write-handlers.js';

const tags = ['Visual cycles'];
const route = routeOptions(tags);

const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/visual_cycles',
    route('listVisualCycles', 'Visual cycles (non-deleted); with start/end only those lying within the period', {
      querystring: VisualCycleQuery,
      response: { 200: Type.Array(VisualCycleResponse) },
    }),
    async (request) => {
      const { start, end } = request.query;
      if (start && end) assertPeriod(start, end, { allowEqual: true });
      const rows = await listVisualCycles(app.db, request.auth.orgId, { start, end });
      return rows.map((row) => serializeVisualCycle(row, request.auth.timezone));
    },
  );

  app.get(
    '/visual_cycles/:id',
    route('getVisualCycle', 'One visual cycle (also when deleted: deleted_by/deleted_at are set)', {
      params: IdParams,
      response: { 200: VisualCycleResponse },
    }),
    async (request) =>
      serializeVisualCycle(
        await findVisualCycleOrThrow(app.db, request.auth.orgId, request.params.id),
        request.auth.timezone,
      ),
  );

  app.post(
    '/visual_cycles',
    route('createVisualCycle', 'Creates a visual cycle; `created_by` optionally names the creating user', {
      body: CreateVisualCycleBody,
      response: { 201: SuccessWithId },
    }),
    createdWithId(app.db, createVisualCycle, (body) => `Added new visual cycle ${body.name}.`),
  );

  app.put(
    '/visual_cycles/:id',
    route('updateVisualCycle', 'Changes a visual cycle; only the fields sent change', {
      params: IdParams,
      body: ChangeVisualCycleBody,
      response: { 200: SuccessWithId },
    }),
    async (request) => {
      await withTransaction(app.db, (trx) => changeVisualCycle(trx, request.auth, request.params.id, request.body));
      const cycle = await findVisualCycleOrThrow(app.db, request.auth.orgId, request.params.id);
      return { ...ok(`Updated visual cycle ${cycle.name}.`), id: cycle.id };
    },
  );

  app.delete(
    '/visual_cycles/:id',
    route('deleteVisualCycle', 'Deletes a visual cycle (soft: deleted_by from the optional query, deleted_at now)', {
      params: IdParams,
      querystring: DeleteVisualCycleQuery,
      response: { 200: SuccessBody },
    }),
    async (request) => {
      const name = await withTransaction(app.db, (trx) =>
        deleteVisualCycle(trx, request.auth, request.params.id, request.query.deleted_by),
      );
      return ok(`Deleted visual cycle ${name}.`);
    },
  );
};

export default routes;
