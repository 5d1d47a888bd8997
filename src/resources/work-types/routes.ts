import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { withTransaction } from '../../core/db/transaction.js';
import { created, EXTENSION, IdParams, ok, SuccessWithId, routeOptions } from '../../core/schemas.js';
import { findWorkTypeOrThrow, listWorkSubtypes, listWorkTypes } from './repository.js';
import { changeWorkType, createWorkType, deleteWorkType } from './rules.js';
import {
  CreateWorkTypeBody,
  UpdateWorkTypeBody,
  WorkSubtypeResponse,
  WorkTypeResponse,
  WorkTypeWriteResponse,
} from './schemas.js';
import { serializeWorkSubtype, serializeWorkType } from './serialize.js';

const tags = ['Work types'];
const route = routeOptions(tags);

const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/work_types',
    route('listWorkTypes', 'Work types (non-deleted), in position order', {
      response: { 200: Type.Array(WorkTypeResponse) },
    }),
    async (request) => (await listWorkTypes(app.db, request.auth.orgId)).map((row) => serializeWorkType(request, row)),
  );

  app.get(
    '/work_types/:id',
    route('getWorkType', 'One work type', { params: IdParams, response: { 200: WorkTypeResponse } }),
    async (request) =>
      serializeWorkType(request, await findWorkTypeOrThrow(app.db, request.auth.orgId, request.params.id)),
  );

  app.get(
    '/work_types/:id/subtypes',
    route('listWorkTypeSubtypes', 'Subtypes of a work type (non-deleted)', {
      params: IdParams,
      response: { 200: Type.Array(WorkSubtypeResponse) },
    }),
    async (request) => {
      await findWorkTypeOrThrow(app.db, request.auth.orgId, request.params.id);
      return (await listWorkSubtypes(app.db, request.auth.orgId, request.params.id)).map(serializeWorkSubtype);
    },
  );

  app.post(
    '/work_types',
    route('createWorkType', 'Creates a work type (extension)', {
      ...EXTENSION,
      body: CreateWorkTypeBody,
      response: { 201: WorkTypeWriteResponse },
    }),
    async (request, reply) => {
      const row = await withTransaction(app.db, async (trx) => {
        const id = await createWorkType(trx, request.auth, request.body);
        return findWorkTypeOrThrow(trx, request.auth.orgId, id);
      });
      reply.status(201);
      return created('Work type created successfully.', serializeWorkType(request, row));
    },
  );

  app.patch(
    '/work_types/:id',
    route('updateWorkType', 'Changes any subset of a work type (extension)', {
      ...EXTENSION,
      params: IdParams,
      body: UpdateWorkTypeBody,
      response: { 200: WorkTypeWriteResponse },
    }),
    async (request) => {
      const row = await withTransaction(app.db, async (trx) => {
        await changeWorkType(trx, request.auth, request.params.id, request.body);
        return findWorkTypeOrThrow(trx, request.auth.orgId, request.params.id);
      });
      return ok('Work type updated successfully.', serializeWorkType(request, row));
    },
  );

  app.delete(
    '/work_types/:id',
    route('deleteWorkType', 'Deletes a work type and its subtypes (soft; extension)', {
      ...EXTENSION,
      params: IdParams,
      response: { 200: SuccessWithId },
    }),
    async (request) => {
      await withTransaction(app.db, (trx) => deleteWorkType(trx, request.auth, request.params.id));
      return { ...ok('Work type deleted successfully.'), id: request.params.id };
    },
  );
};

export default routes;
