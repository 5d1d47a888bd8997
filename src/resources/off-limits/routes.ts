import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { withTransaction } from '../../core/db/transaction.js';
import { created, EXTENSION, IdParams, ok, routeOptions, SuccessBody, SuccessWithId } from '../../core/schemas.js';
import { findOffLimitOrThrow, listOffLimits } from './repository.js';
import { changeOffLimit, createOffLimit, deleteOffLimit, serializeOffLimit } from './rules.js';
import { ChangeOffLimitBody, CreateOffLimitBody, OffLimitResponse } from './schemas.js';

const tags = ['Time off'];
const route = routeOptions(tags);
const description =
  'Limits on who may be off: at most `max_off` off per day within the scopes (docs/contract-rules.md).';

const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/off_limits',
    route('listOffLimits', 'The off limits (extension)', {
      ...EXTENSION,
      description,
      response: { 200: Type.Array(OffLimitResponse) },
    }),
    async (request) => (await listOffLimits(app.db, request.auth.orgId)).map(serializeOffLimit),
  );

  app.get(
    '/off_limits/:id',
    route('getOffLimit', 'One off limit (extension)', {
      ...EXTENSION,
      params: IdParams,
      response: { 200: OffLimitResponse },
    }),
    async (request) => serializeOffLimit(await findOffLimitOrThrow(app.db, request.auth.orgId, request.params.id)),
  );

  app.post(
    '/off_limits',
    route('createOffLimit', 'Adds an off limit (extension)', {
      ...EXTENSION,
      description,
      body: CreateOffLimitBody,
      response: { 201: SuccessWithId },
    }),
    async (request, reply) => {
      const id = await withTransaction(app.db, (trx) => createOffLimit(trx, request.auth, request.body));
      reply.status(201);
      return created('Off limit created successfully.', { id });
    },
  );

  app.patch(
    '/off_limits/:id',
    route('changeOffLimit', 'Changes an off limit (extension)', {
      ...EXTENSION,
      params: IdParams,
      body: ChangeOffLimitBody,
      response: { 200: SuccessWithId },
    }),
    async (request) => {
      await withTransaction(app.db, (trx) => changeOffLimit(trx, request.auth, request.params.id, request.body));
      return { ...ok('Off limit updated successfully.'), id: request.params.id };
    },
  );

  app.delete(
    '/off_limits/:id',
    route('deleteOffLimit', 'Removes an off limit (extension)', {
      ...EXTENSION,
      params: IdParams,
      response: { 200: SuccessBody },
    }),
    async (request) => {
      await withTransaction(app.db, (trx) => deleteOffLimit(trx, request.auth, request.params.id));
      return ok('Off limit removed successfully.');
    },
  );
};

export default routes;
