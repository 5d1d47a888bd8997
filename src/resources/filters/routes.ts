import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { IdParams, SuccessBody, SuccessWithId, routeOptions } from '../../core/schemas.js';
import { findUsersByIds } from '../users/repository.js';
import { findFilterOrThrow, listActiveFilters } from './repository.js';
import { changeFilter, createFilter, deleteFilter } from './rules.js';
import { FilterBody, FilterResponse, FilterSingleResponse } from './schemas.js';
import { serializeFilter, serializeFilterSingle } from './serialize.js';
import { changedWithId, createdWithId, deletedOk } from '../../core/write-handlers.js';

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
    createdWithId(app.db, createFilter, (body) => `Added new filter ${body.label}.`),
  );

  app.post(
    '/filters/:id',
    route('updateFilter', 'Renames a specialty filter', {
      params: IdParams,
      body: FilterBody,
      response: { 200: SuccessWithId },
    }),
    changedWithId(app.db, changeFilter, (body) => `Updated filter ${body.label}.`),
  );

  app.delete(
    '/filters/:id',
    route('deleteFilter', 'Deletes a specialty filter (400 when already deleted)', {
      params: IdParams,
      response: { 200: SuccessBody },
    }),
    deletedOk(app.db, deleteFilter, (label) => `Deleted filter ${label}.`),
  );
};

export default routes;
