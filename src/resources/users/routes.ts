import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { writeLog } from '../../core/audit.js';
import { withTransaction, type Db } from '../../core/db/transaction.js';
import { created, EXTENSION, ok, SuccessBody, UserIdParams, routeOptions } from '../../core/schemas.js';
import { notFound } from '../../core/errors.js';
import { accrualNames, findUserDetails, insertUserField, listUserFields, listUsers } from './repository.js';
import { changeUser, checkUserFields, createUser, deleteUser } from './rules.js';
import {
  CreateUserBody,
  ListUsersQuery,
  UpdateUserBody,
  UserFieldBody,
  UserFieldDefinition,
  UserResponse,
  UserWithFieldsResponse,
  UserWriteResponse,
} from './schemas.js';
import { findMemberUserView } from '../member-view/repository.js';
import { coworkerView, serializeUser } from './serialize.js';

const tags = ['Users'];
const route = routeOptions(tags);

async function loadUserWithFields(db: Db, orgId: number, id: number) {
  const details = await findUserDetails(db, orgId, id);
  if (!details) throw notFound('User');
  return { ...serializeUser(details.user, details.names), fields: details.fields };
}

const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/users',
    route('listUsers', 'Users of the organization (non-deleted, active)', {
      querystring: ListUsersQuery,
      response: { 200: Type.Array(UserResponse) },
    }),
    async (request, reply) => {
      const { orgId, sessionUser } = request.auth;
      const list = async () => {
        const users = await listUsers(app.db, orgId, { employeeId: request.query.employee_id });
        const names = await accrualNames(app.db, orgId, users);
        return users.map((user) => serializeUser(user, names));
      };
      // a member (web app, not an admin) sees coworkers' work contact only, unless the organization shares all
      if (sessionUser && !sessionUser.isAdmin && (await findMemberUserView(app.db, orgId)) !== 'all')
        return (await list()).map((user) => (user.user_id === sessionUser.userId ? user : coworkerView(user)));
      return reply.sendCached(`users|${JSON.stringify(request.query)}`, list);
    },
  );

  app.get(
    '/users/:user_id',
    route('getUser', 'One user, with the extra fields of the organization', {
      params: UserIdParams,
      response: { 200: UserWithFieldsResponse },
    }),
    async (request, reply) =>
      reply.sendCached(`user|${request.params.user_id}`, () =>
        loadUserWithFields(app.db, request.auth.orgId, request.params.user_id),
      ),
  );

  app.put(
    '/users',
    {
      config: {
        ruleChecks: (request, accepted: Partial<CreateUserBody>) =>
          checkUserFields(app.db, request.auth.orgId, { username: accepted.username, password: accepted.password }),
      },
      ...route('createUser', 'Creates a user', {
        description: 'Answers 201 with the success envelope, the new id and the user as GET /users/{user_id} shows it.',
        body: CreateUserBody,
        response: { 201: UserWriteResponse },
      }),
    },
    async (request, reply) => {
      const user = await withTransaction(app.db, async (trx) => {
        const id = await createUser(trx, request.auth, request.body);
        return loadUserWithFields(trx, request.auth.orgId, id);
      });
      reply.status(201);
      return created('User created successfully.', { id: user.user_id, ...user });
    },
  );

  app.patch(
    '/users/:user_id',
    {
      config: {
        ruleChecks: (request, accepted) =>
          checkUserFields(app.db, request.auth.orgId, accepted, (request.params as { user_id: number }).user_id),
      },
      ...route('updateUser', 'Changes any subset of a user', {
        params: UserIdParams,
        body: UpdateUserBody,
        response: { 200: UserWriteResponse },
      }),
    },
    async (request) => {
      const user = await withTransaction(app.db, async (trx) => {
        await changeUser(trx, request.auth, request.params.user_id, request.body);
        return loadUserWithFields(trx, request.auth.orgId, request.params.user_id);
      });
      return ok('User updated successfully.', { id: user.user_id, ...user });
    },
  );

  app.delete(
    '/users/:user_id',
    route('deleteUser', 'Deletes (deactivates) a user (extension)', {
      ...EXTENSION,
      params: UserIdParams,
      response: { 200: SuccessBody },
    }),
    async (request) => {
      await withTransaction(app.db, (trx) => deleteUser(trx, request.auth, request.params.user_id));
      return ok('User removed successfully.');
    },
  );

  app.get(
    '/user_fields',
    route('listUserFields', 'Extra user fields defined by the organization (extension)', {
      ...EXTENSION,
      response: { 200: Type.Array(UserFieldDefinition) },
    }),
    async (request) => listUserFields(app.db, request.auth.orgId),
  );

  app.post(
    '/user_fields',
    route('createUserField', 'Defines an extra user field (extension)', {
      ...EXTENSION,
      body: UserFieldBody,
      response: { 201: UserFieldDefinition },
    }),
    async (request, reply) => {
      const position = request.body.position ?? 0;
      const id = await withTransaction(app.db, async (trx) => {
        const fieldId = await insertUserField(trx, request.auth.orgId, request.body.label, position);
        await writeLog(trx, request.auth, {
          action: 'user_field.created',
          description: `created user field ${request.body.label}.`,
          entityType: 'user_field',
          entityId: fieldId,
        });
        return fieldId;
      });
      reply.status(201);
      return { id, label: request.body.label, position };
    },
  );
};

export default routes;
