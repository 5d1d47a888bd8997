import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { withTransaction } from '../../core/db/transaction.js';
import { created, errorResponses, IdParams, ok, SuccessBody, SuccessWithId } from '../../core/schemas.js';
import { findUsersByIds } from '../users/repository.js';
import { findFilterOrThrow, listActiveFilters } from './repository.js';
import { changeFilter, createFilter, deleteFilter } from './rules.js';
import { FilterBody, FilterResponse, FilterSingleResponse } from './schemas.js';
import { serializeFilter, serializeFilterSingle } from './serialize.js';

const tags = ['Specialty filters'];

const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/filters',
    {
      schema: {
        operationId: 'listFilters',
        summary: 'Active specialty filters',
        tags,
        response: { 200: Type.Array(FilterResponse), ...errorResponses },
      },
    },
    async (request) => {
      const { orgId, timezone } = request.auth;
      const rows = await listActiveFilters(app.db, orgId);
      const users = await findUsersByIds(
        app.db,
        orgId,
        rows.flatMap((row) => (row.created_by === null ? [] : [row.created_by])),
      );
      return rows.map((row) => serializeFilter(row, users, timezone));
    },
  );

  app.get(
    '/filters/:id',
    {
      schema: {
        operationId: 'getFilter',
        summary: 'One specialty filter with `deleted` ("0" active, "1" deleted)',
        tags,
        params: IdParams,
        response: { 200: FilterSingleResponse, ...errorResponses },
      },
    },
    async (request) => {
      const { orgId, timezone } = request.auth;
      const row = await findFilterOrThrow(app.db, orgId, request.params.id);
      const users = await findUsersByIds(app.db, orgId, row.created_by === null ? [] : [row.created_by]);
      return serializeFilterSingle(row, users, timezone);
    },
  );

  app.post(
    '/filters',
    {
      schema: {
        operationId: 'createFilter',
        summary: 'Creates a specialty filter; `user_id` names its creator',
        tags,
        body: FilterBody,
        response: { 201: SuccessWithId, ...errorResponses },
      },
    },
    async (request, reply) => {
      const id = await withTransaction(app.db, (trx) => createFilter(trx, request.auth, request.body));
      reply.status(201);
      return created(`Added new filter ${request.body.label}.`, { id });
    },
  );

  app.post(
    '/filters/:id',
    {
      schema: {
        operationId: 'updateFilter',
        summary: 'Renames a specialty filter',
        tags,
        params: IdParams,
        body: FilterBody,
        response: { 200: SuccessWithId, ...errorResponses },
      },
    },
    async (request) => {
      await withTransaction(app.db, (trx) => changeFilter(trx, request.auth, request.params.id, request.body));
      return { ...ok(`Updated filter ${request.body.label}.`), id: request.params.id };
    },
  );

  app.delete(
    '/filters/:id',
    {
      schema: {
        operationId: 'deleteFilter',
        summary: 'Deletes a specialty filter (400 when already deleted)',
        tags,
        params: IdParams,
        response: { 200: SuccessBody, ...errorResponses },
      },
    },
    async (request) => {
      const label = await withTransaction(app.db, (trx) => deleteFilter(trx, request.auth, request.params.id));
      return ok(`Deleted filter ${label}.`);
    },
  );
};

export default routes;
