import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { conflict, invalidParams, notFound } from '../../core/errors.js';
import {
  EXTENSION,
  IdName,
  Nullable,
  ok,
  PathId,
  SuccessBody,
  UserIdParams,
  routeOptions,
  NullableString,
} from '../../core/schemas.js';
import { nowUtc, utcToLocal } from '../../core/time.js';
import { answerOffer } from '../callbacks/offers/offers.js';
import { findOfferOfUser, listOpenOffersOf } from '../callbacks/repository.js';
import { findUserOrThrow } from '../users/repository.js';

const tags = ['Users', 'Callbacks'];
const route = routeOptions(tags);

const OfferResponse = Type.Object({
  id: Type.Integer(),
  callback_id: Type.Integer(),
  list: IdName,
  assignment: Nullable(IdName),
  start: Type.String({ description: 'local datetime' }),
  end: Type.String({ description: 'local datetime' }),
  notes: NullableString(),
  expires_at: Type.String({ description: 'local datetime: answer by then' }),
});
const AnswerParams = Type.Object({ user_id: PathId, id: PathId });
const AnswerBody = Type.Object({ answer: Type.Union([Type.Literal('accept'), Type.Literal('decline')]) });

/**
 * "My offers" (docs/workflows.md): the callback offers a user can still answer, and the answer,
 * through the same path as the offer's link (single use, one winner per position, the shift at once).
 */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/users/:user_id/callback_offers',
    route('listUserCallbackOffers', "A user's open callback offers, soonest first (extension)", {
      ...EXTENSION,
      params: UserIdParams,
      response: { 200: Type.Array(OfferResponse) },
    }),
    async (request) => {
      const { orgId, timezone } = request.auth;
      const user = await findUserOrThrow(app.db, orgId, request.params.user_id);
      const rows = await listOpenOffersOf(app.db, orgId, user.id, nowUtc());
      return rows.map((row) => ({
        id: row.id,
        callback_id: row.callback_id,
        list: { id: row.list_id, name: row.list_name },
        assignment: row.assignment_id === null ? null : { id: row.assignment_id, name: row.assignment_name ?? '' },
        start: row.start,
        end: row.end,
        notes: row.notes,
        expires_at: utcToLocal(row.expires_at, timezone),
      }));
    },
  );

  app.post(
    '/users/:user_id/callback_offers/:id',
    route(
      'answerUserCallbackOffer',
      "Accepts or declines one of the user's open callback offers, as its link does (extension)",
      { ...EXTENSION, params: AnswerParams, body: AnswerBody, response: { 200: SuccessBody } },
    ),
    async (request) => {
      const { orgId } = request.auth;
      const user = await findUserOrThrow(app.db, orgId, request.params.user_id);
      const offer = await findOfferOfUser(app.db, orgId, user.id, request.params.id);
      if (!offer) throw notFound('CallbackOffer');
      const { answer } = request.body;
      const refusal = await answerOffer(app.db, offer, answer, 'board', nowUtc());
      if (refusal) throw refusal.status === 422 ? invalidParams(refusal.reason) : conflict(refusal.reason);
      return ok(answer === 'accept' ? 'You accepted the callback.' : 'You declined the callback.');
    },
  );
};

export default routes;
