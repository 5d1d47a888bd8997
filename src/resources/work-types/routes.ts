import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { withTransaction } from '../../core/db/transaction.js';
import { created, EXTENSION, errorResponses, IdParams, ok, SuccessWithId } from '../../core/schemas.js';
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

const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/work_types',
    {
      schema: {
        operationId: 'listWorkTypes',
        summary: 'Work types (non-deleted), in position order',
        tags,
        response: { 200: Type.Array(WorkTypeResponse), ...errorResponses },
      },
    },
    async (request) => (await listWorkTypes(app.db, request.auth.orgId)).map((row) => serializeWorkType(request, row)),
  );

  app.get(
    '/work_types/:id',
    {
      schema: {
        operationId: 'getWorkType',
        summary: 'One work type',
        tags,
        params: IdParams,
        response: { 200: WorkTypeResponse, ...errorResponses },
      },
    },
    async (request) =>
      serializeWorkType(request, await findWorkTypeOrThrow(app.db, request.auth.orgId, request.params.id)),
  );

  app.get(
    '/work_types/:id/subtypes',
    {
      schema: {
        operationId: 'listWorkTypeSubtypes',
        summary: 'Subtypes of a work type (non-deleted)',
        tags,
        params: IdParams,
        response: { 200: Type.Array(WorkSubtypeResponse), ...errorResponses },
      },
    },
    async (request) => {
      await findWorkTypeOrThrow(app.db, request.auth.orgId, request.params.id);
      return (await listWorkSubtypes(app.db, request.auth.orgId, request.params.id)).map(serializeWorkSubtype);
    },
  );

  app.post(
    '/work_types',
    {
      schema: {
        ...EXTENSION,
        operationId: 'createWorkType',
        summary: 'Creates a work type (extension)',
        tags,
        body: CreateWorkTypeBody,
        response: { 201: WorkTypeWriteResponse, ...errorResponses },
      },
    },
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
    {
      schema: {
        ...EXTENSION,
        operationId: 'updateWorkType',
        summary: 'Changes any subset of a work type (extension)',
        tags,
        params: IdParams,
        body: UpdateWorkTypeBody,
        response: { 200: WorkTypeWriteResponse, ...errorResponses },
      },
    },
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
    {
      schema: {
        ...EXTENSION,
        operationId: 'deleteWorkType',
        summary: 'Deletes a work type and its subtypes (soft; extension)',
        tags,
        params: IdParams,
        response: { 200: SuccessWithId, ...errorResponses },
      },
    },
    async (request) => {
      await withTransaction(app.db, (trx) => deleteWorkType(trx, request.auth, request.params.id));
      return { ...ok('Work type deleted successfully.'), id: request.params.id };
    },
  );
};

export default routes;
