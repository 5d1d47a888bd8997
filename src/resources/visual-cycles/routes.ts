import { assertPeriod } from '../../core/time.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { withTransaction } from '../../core/db/transaction.js';
import { created, errorResponses, IdParams, ok, SuccessBody, SuccessWithId } from '../../core/schemas.js';
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

const tags = ['Visual cycles'];

const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/visual_cycles',
    {
      schema: {
        operationId: 'listVisualCycles',
        summary: 'Visual cycles (non-deleted); with start/end only those lying within the period',
        tags,
        querystring: VisualCycleQuery,
        response: { 200: Type.Array(VisualCycleResponse), ...errorResponses },
      },
    },
    async (request) => {
      const { start, end } = request.query;
      if (start && end) assertPeriod(start, end, { allowEqual: true });
      const rows = await listVisualCycles(app.db, request.auth.orgId, { start, end });
      return rows.map((row) => serializeVisualCycle(row, request.auth.timezone));
    },
  );

  app.get(
    '/visual_cycles/:id',
    {
      schema: {
        operationId: 'getVisualCycle',
        summary: 'One visual cycle (also when deleted: deleted_by/deleted_at are set)',
        tags,
        params: IdParams,
        response: { 200: VisualCycleResponse, ...errorResponses },
      },
    },
    async (request) =>
      serializeVisualCycle(
        await findVisualCycleOrThrow(app.db, request.auth.orgId, request.params.id),
        request.auth.timezone,
      ),
  );

  app.post(
    '/visual_cycles',
    {
      schema: {
        operationId: 'createVisualCycle',
        summary: 'Creates a visual cycle; `created_by` optionally names the creating user',
        tags,
        body: CreateVisualCycleBody,
        response: { 201: SuccessWithId, ...errorResponses },
      },
    },
    async (request, reply) => {
      const id = await withTransaction(app.db, (trx) => createVisualCycle(trx, request.auth, request.body));
      reply.status(201);
      return created(`Added new visual cycle ${request.body.name}.`, { id });
    },
  );

  app.put(
    '/visual_cycles/:id',
    {
      schema: {
        operationId: 'updateVisualCycle',
        summary: 'Changes a visual cycle; only the fields sent change',
        tags,
        params: IdParams,
        body: ChangeVisualCycleBody,
        response: { 200: SuccessWithId, ...errorResponses },
      },
    },
    async (request) => {
      await withTransaction(app.db, (trx) => changeVisualCycle(trx, request.auth, request.params.id, request.body));
      const cycle = await findVisualCycleOrThrow(app.db, request.auth.orgId, request.params.id);
      return { ...ok(`Updated visual cycle ${cycle.name}.`), id: cycle.id };
    },
  );

  app.delete(
    '/visual_cycles/:id',
    {
      schema: {
        operationId: 'deleteVisualCycle',
        summary: 'Deletes a visual cycle (soft: deleted_by from the optional query, deleted_at now)',
        tags,
        params: IdParams,
        querystring: DeleteVisualCycleQuery,
        response: { 200: SuccessBody, ...errorResponses },
      },
    },
    async (request) => {
      const name = await withTransaction(app.db, (trx) =>
        deleteVisualCycle(trx, request.auth, request.params.id, request.query.deleted_by),
      );
      return ok(`Deleted visual cycle ${name}.`);
    },
  );
};

export default routes;
