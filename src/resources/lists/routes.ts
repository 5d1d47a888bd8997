import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { withTransaction, type Db } from '../../core/db/transaction.js';
import { created, errorResponses, EXTENSION, IdParams, ok, SuccessBody, routeOptions } from '../../core/schemas.js';
import { findListOrThrow, listActiveLists } from './repository.js';
import { changeList, createList, deleteList } from './rules.js';
import {
  CallbackListResponse,
  CallbackListSingleResponse,
  ChangeListBody,
  CreateListBody,
  ListWriteResponse,
} from './schemas.js';
import { serializeList, serializeListSingle } from './serialize.js';
import { deletedOk } from '../../core/write-handlers.js';

const tags = ['Callback lists'];
const route = routeOptions(tags);

async function listWithOrdering(db: Db, orgId: number, id: number) {
  const row = await findListOrThrow(db, orgId, id);
  return { ...serializeListSingle(row), ordering: row.ordering };
}

const routes: FastifyPluginAsyncTypebox = async (app) => {
  for (const [path, operation] of [
    ['/lists', 'Lists'],
    ['/titles', 'Titles'],
  ] as const) {
    app.get(
      path,
      {
        schema: {
          operationId: `list${operation}`,
          summary: `Active callback lists${path === '/titles' ? ' (alias of /lists)' : ''}`,
          tags,
          response: { 200: Type.Array(CallbackListResponse), ...errorResponses },
        },
      },
      async (request) => (await listActiveLists(app.db, request.auth.orgId)).map(serializeList),
    );

    app.get(
      `${path}/:id`,
      {
        schema: {
          operationId: `get${operation.slice(0, -1)}`,
          summary: `One callback list with \`deleted\`${path === '/titles' ? ' (alias of /lists/{id})' : ''}`,
          tags,
          params: IdParams,
          response: { 200: CallbackListSingleResponse, ...errorResponses },
        },
      },
      async (request) => serializeListSingle(await findListOrThrow(app.db, request.auth.orgId, request.params.id)),
    );
  }

  app.post(
    '/lists',
    route('createList', 'Creates a callback list with its hour limits and ordering method (extension)', {
      ...EXTENSION,
      body: CreateListBody,
      response: { 201: ListWriteResponse },
    }),
    async (request, reply) => {
      const list = await withTransaction(app.db, async (trx) => {
        const id = await createList(trx, request.auth, request.body);
        return listWithOrdering(trx, request.auth.orgId, id);
      });
      reply.status(201);
      return created(`Added new callback list ${list.name}.`, { id: list.id, list });
    },
  );

  app.patch(
    '/lists/:id',
    route('changeList', 'Changes a callback list; only the fields sent change (extension)', {
      ...EXTENSION,
      params: IdParams,
      body: ChangeListBody,
      response: { 200: ListWriteResponse },
    }),
    async (request) => {
      const list = await withTransaction(app.db, async (trx) => {
        await changeList(trx, request.auth, request.params.id, request.body);
        return listWithOrdering(trx, request.auth.orgId, request.params.id);
      });
      return { ...ok(`Updated callback list ${list.name}.`), id: list.id, list };
    },
  );

  app.delete(
    '/lists/:id',
    route('deleteList', 'Deletes a callback list (soft; extension)', {
      ...EXTENSION,
      params: IdParams,
      response: { 200: SuccessBody },
    }),
    deletedOk(app.db, deleteList, (name) => `Deleted callback list ${name}.`),
  );
};

export default routes;
