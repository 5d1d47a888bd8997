import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { withTransaction } from '../../core/db/transaction.js';
import { created, SuccessWithId, routeOptions } from '../../core/schemas.js';
import { listGroups } from './repository.js';
import { createGroup } from './rules.js';
import { GroupBody, GroupResponse } from './schemas.js';

const tags = ['Groups'];
const route = routeOptions(tags);

const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/groups',
    route('listGroups', 'Groups of the organization', { response: { 200: Type.Array(GroupResponse) } }),
    async (request) =>
      (await listGroups(app.db, request.auth.orgId)).map((row) => ({ id: String(row.id), label: row.name })),
  );

  app.post(
    '/groups',
    route('createGroup', 'Creates a group', { body: GroupBody, response: { 201: SuccessWithId } }),
    async (request, reply) => {
      const { name } = request.body;
      const id = await withTransaction(app.db, (trx) => createGroup(trx, request.auth, name));
      reply.status(201);
      return created(`Added new group ${name}.`, { id });
    },
  );
};

export default routes;
