import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { withTransaction } from '../../core/db/transaction.js';
import { created, IdParams, ok, SuccessBody, SuccessWithId, routeOptions } from '../../core/schemas.js';
import { findUsersByIds } from '../users/repository.js';
import { findFilterOrThrow, listActiveFilters } from './repository.js';
import { changeFilter, createFilter, deleteFilter } from './rules.js';
import { FilterBody, FilterResponse, FilterSingleResponse } from './schemas.js';
import { serializeFilter, serializeFilterSingle } from './serialize.js';

const tags = ['Specialty filters'];
const route = routeOptions(tags);

const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/filters',
    route('listFilters', 'Active specialty filters', { response: { 200: Type.Array(FilterResponse) } }),
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
    route('getFilter', 'One specialty filter with `deleted` ("0" active, "1" deleted)', {
      params: IdParams,
      response: { 200: FilterSingleResponse },
    }),
    async (request) => {
      const { orgId, timezone } = request.auth;
      const row = await findFilterOrThrow(app.db, orgId, request.params.id);
      const users = await findUsersByIds(app.db, orgId, row.created_by === null ? [] : [row.created_by]);
      return serializeFilterSingle(row, users, timezone);
    },
  );

  app.post(
    '/filters',
    route('createFilter', 'Creates a specialty filter; `user_id` names its creator', {
      body: FilterBody,
      response: { 201: SuccessWithId },
    }),
    async (request, reply) => {
      const id = await withTransaction(app.db, (trx) => createFilter(trx, request.auth, request.body));
      reply.status(201);
      return created(`Added new filter ${request.body.label}.`, { id });
    },
  );

  app.post(
    '/filters/:id',
    route('updateFilter', 'Renames a specialty filter', {
      params: IdParams,
      body: FilterBody,
      response: { 200: SuccessWithId },
    }),
    async (request) => {
      await withTransaction(app.db, (trx) => changeFilter(trx, request.auth, request.params.id, request.body));
      return { ...ok(`Updated filter ${request.body.label}.`), id: request.params.id };
    },
  );

  app.delete(
    '/filters/:id',
    route('deleteFilter', 'Deletes a specialty filter (400 when already deleted)', {
      params: IdParams,
      response: { 200: SuccessBody },
    }),
    async (request) => {
      const label = await withTransaction(app.db, (trx) => deleteFilter(trx, request.auth, request.params.id));
      return ok(`Deleted filter ${label}.`);
    },
  );
};

export default routes;
