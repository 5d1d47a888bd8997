import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { withTransaction } from '../../core/db/transaction.js';
import { created, EXTENSION, IdParams, ok, SuccessWithId, routeOptions } from '../../core/schemas.js';
import { normalizeLocalDateTime, nowLocal } from '../../core/time.js';
import { findUsersByIds } from '../users/repository.js';
import { findSignupEventOrThrow, listEventUsers, listSignupEvents } from './repository.js';
import {
  checkSignupEventFields,
  createSignupEvent,
  deleteSignupEvent,
  removeSignedUpUser,
  replaceSignupEvent,
  signUpUser,
} from './rules.js';
import {
  DeleteSignupEventQuery,
  EventUserParams,
  ReplaceSignupEventBody,
  SignupEventBody,
  SignupEventDetailResponse,
  SignupEventListQuery,
  SignupEventResponse,
  SignupEventUserResponse,
  SignupUserBody,
} from './schemas.js';
import { serializeEventUser, serializeSignupEvent, serializeSignupEventDetail } from './serialize.js';
import { createdWithId } from '../../core/write-handlers.js';

const tags = ['Signup events'];
const route = routeOptions(tags);
const isTruthy = (value: string | undefined) =>
  value !== undefined && ['1', 'true', 'yes', 'on'].includes(value.toLowerCase());

const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/signup_events',
    route(
      'listSignupEvents',
      'Signup events (non-deleted unless `deleted` is set), filtered by deleted, archived, status, start, end',
      { querystring: SignupEventListQuery, response: { 200: Type.Array(SignupEventResponse) } },
    ),
    async (request) => {
      const { orgId, timezone } = request.auth;
      const q = request.query;
      const now = nowLocal(timezone);
      const events = await listSignupEvents(app.db, orgId, {
        deleted: isTruthy(q.deleted),
        archived: isTruthy(q.archived),
        status: q.status,
        start: q.start === undefined ? undefined : normalizeLocalDateTime(q.start),
        end: q.end === undefined ? undefined : normalizeLocalDateTime(q.end),
        now,
      });
      return events.map((event) => serializeSignupEvent(event, timezone, now));
    },
  );

  app.get(
    '/signup_events/:id',
    route('getSignupEvent', 'One signup event, also when deleted', {
      params: IdParams,
      response: { 200: SignupEventDetailResponse },
    }),
    async (request) => {
      const { orgId, timezone } = request.auth;
      const event = await findSignupEventOrThrow(app.db, orgId, request.params.id);
      return serializeSignupEventDetail(event, timezone, nowLocal(timezone));
    },
  );

  app.post(
    '/signup_events',
    {
      config: { ruleChecks: (request, accepted) => checkSignupEventFields(app.db, request.auth.orgId, accepted) },
      ...route('createSignupEvent', 'Creates a signup event, open for sign-up at once', {
        body: SignupEventBody,
        response: { 201: SuccessWithId },
      }),
    },
    createdWithId(app.db, createSignupEvent, (body) => `Added signup event ${body.title.trim()}`),
  );

  app.put(
    '/signup_events/:id',
    {
      config: { ruleChecks: (request, accepted) => checkSignupEventFields(app.db, request.auth.orgId, accepted) },
      ...route(
        'replaceSignupEvent',
        'Changes a signup event; every field is sent (omitted optional fields are cleared)',
        {
          params: IdParams,
          body: ReplaceSignupEventBody,
          response: { 200: SuccessWithId },
        },
      ),
    },
    async (request) => {
      const { id } = request.params;
      const title = await withTransaction(app.db, (trx) => replaceSignupEvent(trx, request.auth, id, request.body));
      return ok(`Updated signup event ${title}`, { id });
    },
  );

  app.delete(
    '/signup_events/:id',
    route('deleteSignupEvent', 'Soft-deletes a signup event (extension); it stays readable by id with status deleted', {
      ...EXTENSION,
      params: IdParams,
      querystring: DeleteSignupEventQuery,
      response: { 200: SuccessWithId },
    }),
    async (request) => {
      const { id } = request.params;
      const title = await withTransaction(app.db, (trx) =>
        deleteSignupEvent(trx, request.auth, id, request.query.admin_id),
      );
      return ok(`Deleted signup event ${title}`, { id });
    },
  );

  app.get(
    '/signup_events/:id/users',
    route('listSignupEventUsers', 'Users signed up for an event, with the misc-hours entry made for each', {
      params: IdParams,
      response: { 200: Type.Array(SignupEventUserResponse) },
    }),
    async (request) => {
      const { orgId } = request.auth;
      await findSignupEventOrThrow(app.db, orgId, request.params.id);
      const signups = await listEventUsers(app.db, orgId, request.params.id);
      const users = await findUsersByIds(
        app.db,
        orgId,
        signups.map((s) => s.user_id),
      );
      return signups.map((signup) => serializeEventUser(request, signup, users.get(signup.user_id)));
    },
  );

  app.post(
    '/signup_events/:id/users',
    route('signUpForEvent', 'Signs a user up; creates a misc-hours entry for the event span', {
      description: '422 when the user is already signed up, the event is filled or deleted. `id` is the event id.',
      params: IdParams,
      body: SignupUserBody,
      response: { 201: SuccessWithId },
    }),
    async (request, reply) => {
      const { id } = request.params;
      const { name, title } = await withTransaction(app.db, (trx) =>
        signUpUser(trx, request.auth, id, request.body.user_id, request.body.override_reason),
      );
      reply.status(201);
      return created(`Signed ${name} up for event ${title}`, { id });
    },
  );

  app.delete(
    '/signup_events/:id/users/:user_id',
    route('removeFromEvent', 'Removes a signed-up user and the misc-hours entry made at sign-up', {
      description: '422 when the user is not signed up. `id` is the event id.',
      params: EventUserParams,
      response: { 200: SuccessWithId },
    }),
    async (request) => {
      const { id, user_id } = request.params;
      const { name, title } = await withTransaction(app.db, (trx) =>
        removeSignedUpUser(trx, request.auth, id, user_id),
      );
      return ok(`Removed ${name} from event ${title}`, { id });
    },
  );
};

export default routes;
