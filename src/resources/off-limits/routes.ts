import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { EXTENSION, IdParams, routeOptions, SuccessBody, SuccessWithId } from '../../core/schemas.js';
import { findOffLimitOrThrow, listOffLimits } from './repository.js';
import { changeOffLimit, createOffLimit, deleteOffLimit, serializeOffLimit } from './rules.js';
import { ChangeOffLimitBody, CreateOffLimitBody, OffLimitResponse } from './schemas.js';
import { changedWithId, createdWithId, deletedOk } from '../../core/write-handlers.js';

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
    createdWithId(app.db, createOffLimit, 'Off limit created successfully.'),
  );

  app.patch(
    '/off_limits/:id',
    route('changeOffLimit', 'Changes an off limit (extension)', {
      ...EXTENSION,
      params: IdParams,
      body: ChangeOffLimitBody,
      response: { 200: SuccessWithId },
    }),
    changedWithId(app.db, changeOffLimit, 'Off limit updated successfully.'),
  );

  app.delete(
    '/off_limits/:id',
    route('deleteOffLimit', 'Removes an off limit (extension)', {
      ...EXTENSION,
      params: IdParams,
      response: { 200: SuccessBody },
    }),
    deletedOk(app.db, deleteOffLimit, 'Off limit removed successfully.'),
  );
};

export default routes;
