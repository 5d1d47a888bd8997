import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Db } from '../../core/db/transaction.js';
import { withTransaction } from '../../core/db/transaction.js';
import { dataEnvelope, linkTo } from '../../core/pagination.js';
import { created, EXTENSION, IdParams, ok, SuccessBody, routeOptions } from '../../core/schemas.js';
import { normalizeLocalDateTime, nowUtc } from '../../core/time.js';
import { findUsersByIds } from '../users/repository.js';
import { listNames } from '../lists/repository.js';
import { findCallbackOrThrow, listCallbacks, listCallbackUsers } from './repository.js';
import {
  cancelCallback,
  checkCallbackFields,
  recordResponse,
  resendOffer,
  revokeOpenOffer,
  startCallback,
} from './rules.js';
import {
  CallbackPage,
  CallbackResponse,
  CallbackUserParams,
  CallbackUserResponse,
  CancelCallbackBody,
  ListCallbacksQuery,
  PAGE_SIZE,
  RecordResponseBody,
  RecordResponseResult,
  RevokeOfferQuery,
  StartCallbackBody,
  StartCallbackResponse,
} from './schemas.js';
import { serializeCallback, serializeCallbackUser, type CallbackNames } from './serialize.js';
import type { CallbackRow } from './table.js';

const tags = ['Callbacks'];
const route = routeOptions(tags);

async function namesOf(db: Db, orgId: number, callbacks: CallbackRow[]): Promise<CallbackNames> {
  const [lists, users] = await Promise.all([
    listNames(
      db,
      orgId,
      callbacks.map((c) => c.list_id),
    ),
    findUsersByIds(
      db,
      orgId,
      callbacks.map((c) => c.initiated_by),
    ),
  ]);
  return { lists: new Map(lists.map((l) => [l.id, l])), users };
}

const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/callbacks',
    route('listCallbacks', 'Callbacks overlapping start..end (when given), 50 per page with offset links', {
      querystring: ListCallbacksQuery,
      response: { 200: CallbackPage },
    }),
    async (request) => {
      const { orgId, timezone } = request.auth;
      const q = request.query;
      const start = q.start === undefined ? undefined : normalizeLocalDateTime(q.start);
      const end = q.end === undefined ? undefined : normalizeLocalDateTime(q.end);
      const offset = q.offset ?? 0;
      const limit = q.limit ?? PAGE_SIZE;
      const rows = await listCallbacks(app.db, orgId, { start, end, offset, limit });
      const page = rows.slice(0, limit);
      const names = await namesOf(app.db, orgId, page);
      const now = nowUtc();
      // Pagination links carry `limit` (spec, Limits), the default 50 too.
      const link = (at: number) => linkTo(request, '/callbacks', { start, end, limit, offset: at });
      const prev = offset > 0 ? link(Math.max(0, offset - limit)) : null;
      const next = rows.length > limit ? link(offset + limit) : null;
      return dataEnvelope(
        page.map((c) => serializeCallback(c, names, timezone, now)),
        prev,
        next,
      );
    },
  );

  app.get(
    '/callbacks/:id',
    route('getCallback', 'One callback', { params: IdParams, response: { 200: CallbackResponse } }),
    async (request) => {
      const { orgId, timezone } = request.auth;
      const callback = await findCallbackOrThrow(app.db, orgId, request.params.id);
      return serializeCallback(callback, await namesOf(app.db, orgId, [callback]), timezone, nowUtc());
    },
  );

  app.get(
    '/callbacks/:id/users',
    route('listCallbackUsers', 'The users to contact for a callback, in contact order, with their responses', {
      description: '`id` is the user id. Users not contacted yet have status `pending`.',
      params: IdParams,
      response: { 200: Type.Array(CallbackUserResponse) },
    }),
    async (request) => {
      await findCallbackOrThrow(app.db, request.auth.orgId, request.params.id);
      const rows = await listCallbackUsers(app.db, request.auth.orgId, request.params.id);
      return rows.map(serializeCallbackUser);
    },
  );

  app.post(
    '/callbacks',
    {
      config: { ruleChecks: (request, accepted) => checkCallbackFields(app.db, request.auth, accepted) },
      ...route(
        'startCallback',
        'Starts a callback on a list (extension): eligible members in contact order, skipped ones with the reason',
        { ...EXTENSION, body: StartCallbackBody, response: { 201: StartCallbackResponse } },
      ),
    },
    async (request, reply) => {
      const started = await withTransaction(app.db, (trx) => startCallback(trx, request.auth, request.body));
      reply.status(201);
      return created(`Started callback #${started.id}`, started);
    },
  );

  app.post(
    '/callbacks/:id/users',
    route('recordCallbackResponse', "Records a contacted user's response (extension): accepted, denied or no answer", {
      ...EXTENSION,
      params: IdParams,
      body: RecordResponseBody,
      response: { 200: RecordResponseResult },
    }),
    async (request) => {
      const { id } = request.params;
      const result = await withTransaction(app.db, (trx) => recordResponse(trx, request.auth, id, request.body));
      return {
        ...ok(`Recorded ${result.name}: ${request.body.status}`),
        id,
        callback_status: result.callbackStatus,
        shift_id: result.shiftId,
      };
    },
  );

  app.delete(
    '/callbacks/:id/users/:user_id/offer',
    route(
      'revokeCallbackOffer',
      "Revokes the user's open offer link of a callback: the link and SMS replies are refused from now on",
      { ...EXTENSION, params: CallbackUserParams, querystring: RevokeOfferQuery, response: { 200: SuccessBody } },
    ),
    async (request) => {
      const { id, user_id: userId } = request.params;
      await withTransaction(app.db, (trx) => revokeOpenOffer(trx, request.auth, id, userId, request.query.admin_id));
      return ok(`Revoked the offer link of user #${userId} on callback #${id}`);
    },
  );

  app.post(
    '/callbacks/:id/users/:user_id/resend',
    route(
      'resendCallbackOffer',
      "Re-sends a user's offer (extension): revokes the open link, the runner offers again with a fresh one",
      { ...EXTENSION, params: CallbackUserParams, body: CancelCallbackBody, response: { 200: SuccessBody } },
    ),
    async (request) => {
      const { id, user_id: userId } = request.params;
      await withTransaction(app.db, (trx) => resendOffer(trx, request.auth, id, userId, request.body.admin_id));
      return ok(`Re-sending the offer of callback #${id} to user #${userId}`);
    },
  );

  app.post(
    '/callbacks/:id/cancel',
    route('cancelCallback', 'Cancels an active callback (extension); shifts already accepted stay', {
      ...EXTENSION,
      params: IdParams,
      body: CancelCallbackBody,
      response: { 200: SuccessBody },
    }),
    async (request) => {
      await withTransaction(app.db, (trx) =>
        cancelCallback(trx, request.auth, request.params.id, request.body.admin_id),
      );
      return ok(`Cancelled callback #${request.params.id}`);
    },
  );
};

export default routes;
