import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { withTransaction } from '../../core/db/transaction.js';
import {
  created,
  errorResponses,
  ok,
  SuccessBody,
  SuccessOnly,
  succeeded,
  UserIdParams,
  routeOptions,
} from '../../core/schemas.js';
import { listFiltersOfUser } from '../filters/repository.js';
import { FilterResponse } from '../filters/schemas.js';
import { serializeFilter } from '../filters/serialize.js';
import { listGroupsOfUser } from '../groups/repository.js';
import { listListsOfUser } from '../lists/repository.js';
import { CallbackListResponse } from '../lists/schemas.js';
import { serializeList } from '../lists/serialize.js';
import { findUserOrThrow, findUsersByIds } from '../users/repository.js';
import { listQualifiersOfUser } from './repository.js';
import {
  addUserQualifier,
  MEMBERSHIPS,
  removeUserQualifier,
  replaceMemberships,
  replaceQualifiersOfUser,
} from './rules.js';
import {
  AddQualifierBody,
  IdsBody,
  ReplaceQualifiersBody,
  UserGroupItem,
  UserQualifierItem,
  UserQualifierParams,
} from './schemas.js';
import userCertificationRoutes from './user-certifications.js';

const tags = ['Users'];
const route = routeOptions(tags);

const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/users/:user_id/titles',
    route('listUserTitles', "The user's callback lists (active ones, as GET /lists shows them)", {
      params: UserIdParams,
      response: { 200: Type.Array(CallbackListResponse) },
    }),
    async (request) => {
      await findUserOrThrow(app.db, request.auth.orgId, request.params.user_id);
      return (await listListsOfUser(app.db, request.auth.orgId, request.params.user_id)).map(serializeList);
    },
  );

  app.get(
    '/users/:user_id/filters',
    route('listUserFilters', "The user's specialty filters (active ones, as GET /filters shows them)", {
      params: UserIdParams,
      response: { 200: Type.Array(FilterResponse) },
    }),
    async (request) => {
      const { orgId, timezone } = request.auth;
      await findUserOrThrow(app.db, orgId, request.params.user_id);
      const rows = await listFiltersOfUser(app.db, orgId, request.params.user_id);
      const creators = await findUsersByIds(
        app.db,
        orgId,
        rows.flatMap((row) => (row.created_by === null ? [] : [row.created_by])),
      );
      return rows.map((row) => serializeFilter(row, creators, timezone));
    },
  );

  app.get(
    '/users/:user_id/groups',
    route('listUserGroups', "The user's groups", {
      params: UserIdParams,
      response: { 200: Type.Array(UserGroupItem) },
    }),
    async (request) => {
      await findUserOrThrow(app.db, request.auth.orgId, request.params.user_id);
      return listGroupsOfUser(app.db, request.auth.orgId, request.params.user_id);
    },
  );

  for (const [segment, membership] of Object.entries(MEMBERSHIPS)) {
    app.put(
      `/users/:user_id/${segment}`,
      {
        schema: {
          operationId: `replaceUser${segment[0].toUpperCase()}${segment.slice(1)}`,
          summary: `Replaces the user's ${membership.kind}`,
          tags,
          params: UserIdParams,
          body: IdsBody,
          response: { 200: SuccessOnly, ...errorResponses },
        },
      },
      async (request) => {
        await withTransaction(app.db, (trx) =>
          replaceMemberships(trx, request.auth, membership, request.params.user_id, request.body.ids),
        );
        return succeeded();
      },
    );
  }

  app.get(
    '/users/:user_id/qualifiers',
    route('listUserQualifiers', "The user's qualifiers with their ranking", {
      params: UserIdParams,
      response: { 200: Type.Array(UserQualifierItem) },
    }),
    async (request) => {
      await findUserOrThrow(app.db, request.auth.orgId, request.params.user_id);
      return listQualifiersOfUser(app.db, request.auth.orgId, request.params.user_id);
    },
  );

  app.post(
    '/users/:user_id/qualifiers',
    route('addUserQualifier', 'Gives the user a qualifier (ranking defaults to the end of the list)', {
      params: UserIdParams,
      body: AddQualifierBody,
      response: { 201: SuccessBody },
    }),
    async (request, reply) => {
      const message = await withTransaction(app.db, (trx) =>
        addUserQualifier(trx, request.auth, request.params.user_id, request.body),
      );
      reply.status(201);
      return created(message);
    },
  );

  app.put(
    '/users/:user_id/qualifiers',
    route('replaceUserQualifiers', "Replaces all of the user's qualifiers and rankings", {
      params: UserIdParams,
      body: ReplaceQualifiersBody,
      response: { 200: SuccessBody },
    }),
    async (request) => {
      await withTransaction(app.db, (trx) =>
        replaceQualifiersOfUser(trx, request.auth, request.params.user_id, request.body),
      );
      return ok('Replaced user qualifiers.');
    },
  );

  app.delete(
    '/users/:user_id/qualifiers/:id',
    route('removeUserQualifier', 'Takes a qualifier (by qualifier id) from the user', {
      params: UserQualifierParams,
      response: { 200: SuccessBody },
    }),
    async (request) => {
      const { user_id: userId, id } = request.params;
      return ok(await withTransaction(app.db, (trx) => removeUserQualifier(trx, request.auth, userId, id)));
    },
  );

  await app.register(userCertificationRoutes);
};

export default routes;
