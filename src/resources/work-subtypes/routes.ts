import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { withTransaction } from '../../core/db/transaction.js';
import { created, EXTENSION, IdParams, ok, SuccessWithId, routeOptions } from '../../core/schemas.js';
import { findWorkSubtypeOrThrow, listWorkSubtypes } from '../work-types/repository.js';
import { changeWorkSubtype, createWorkSubtype, deleteWorkSubtype } from '../work-types/rules.js';
import {
  CreateWorkSubtypeBody,
  UpdateWorkSubtypeBody,
  WorkSubtypeResponse,
  WorkSubtypeWriteResponse,
} from '../work-types/schemas.js';
import { serializeWorkSubtype } from '../work-types/serialize.js';

const tags = ['Work types'];
const route = routeOptions(tags);

const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/work_subtypes',
    route('listWorkSubtypes', 'Every work subtype (non-deleted)', {
      response: { 200: Type.Array(WorkSubtypeResponse) },
    }),
    async (request) => (await listWorkSubtypes(app.db, request.auth.orgId)).map(serializeWorkSubtype),
  );

  app.get(
    '/work_subtypes/:id',
    route('getWorkSubtype', 'One work subtype (extension)', {
      ...EXTENSION,
      params: IdParams,
      response: { 200: WorkSubtypeResponse },
    }),
    async (request) =>
      serializeWorkSubtype(await findWorkSubtypeOrThrow(app.db, request.auth.orgId, request.params.id)),
  );

  app.post(
    '/work_subtypes',
    route('createWorkSubtype', 'Creates a subtype of a work type (extension)', {
      ...EXTENSION,
      body: CreateWorkSubtypeBody,
      response: { 201: WorkSubtypeWriteResponse },
    }),
    async (request, reply) => {
      const row = await withTransaction(app.db, async (trx) => {
        const id = await createWorkSubtype(trx, request.auth, request.body);
        return findWorkSubtypeOrThrow(trx, request.auth.orgId, id);
      });
      reply.status(201);
      return created('Work subtype created successfully.', serializeWorkSubtype(row));
    },
  );

  app.patch(
    '/work_subtypes/:id',
    route('updateWorkSubtype', 'Changes any subset of a work subtype (extension)', {
      ...EXTENSION,
      params: IdParams,
      body: UpdateWorkSubtypeBody,
      response: { 200: WorkSubtypeWriteResponse },
    }),
    async (request) => {
      const row = await withTransaction(app.db, async (trx) => {
        await changeWorkSubtype(trx, request.auth, request.params.id, request.body);
        return findWorkSubtypeOrThrow(trx, request.auth.orgId, request.params.id);
      });
      return ok('Work subtype updated successfully.', serializeWorkSubtype(row));
    },
  );

  app.delete(
    '/work_subtypes/:id',
    route('deleteWorkSubtype', 'Deletes a work subtype (soft; extension)', {
      ...EXTENSION,
      params: IdParams,
      response: { 200: SuccessWithId },
    }),
    async (request) => {
      await withTransaction(app.db, (trx) => deleteWorkSubtype(trx, request.auth, request.params.id));
      return { ...ok('Work subtype deleted successfully.'), id: request.params.id };
    },
  );
};

export default routes;
