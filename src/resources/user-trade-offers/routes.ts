import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { withTransaction } from '../../core/db/transaction.js';
import { notFound } from '../../core/errors.js';
import {
  EXTENSION,
  IdName,
  NullableString,
  ok,
  PathId,
  routeOptions,
  SuccessBody,
  UserIdParams,
} from '../../core/schemas.js';
import { nowLocal } from '../../core/time.js';
import { findTradeUser, listOpenTradeOffersOf } from '../trades/repository.js';
import { actOnTrade, tradeStatus } from '../trades/rules.js';
import { findUserOrThrow, findUsersByIds } from '../users/repository.js';
import { fullName } from '../users/serialize.js';

const tags = ['Users', 'Trades'];
const route = routeOptions(tags);

const TradeOfferResponse = Type.Object({
  id: Type.Integer({ description: "the trade's id" }),
  requesting_user: IdName,
  start: Type.String({ description: 'local datetime' }),
  end: Type.String({ description: 'local datetime' }),
  swap_start: NullableString(),
  swap_end: NullableString(),
  status: Type.String({ description: "the trade's status: pending, accepted or approved" }),
  notes: NullableString(),
  answer: Type.Union([Type.Literal('offered'), Type.Literal('accepted')], {
    description: 'offered: not answered yet; accepted: this user accepted it (an admin approves it)',
  }),
});
const AnswerParams = Type.Object({ user_id: PathId, id: PathId });
const AnswerBody = Type.Object({ answer: Type.Union([Type.Literal('accept'), Type.Literal('decline')]) });

/**
 * "Trades offered to me" (docs/workflows.md#trades-offered-to-me): the open trades whose
 * `offered_user_ids` name the user, and the user's answer, through the trade's own accept and
 * decline actions (the trade's row lock: of two offered users accepting at once, one wins).
 */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/users/:user_id/trade_offers',
    route('listUserTradeOffers', 'The open trades offered to a user, soonest first (extension)', {
      ...EXTENSION,
      params: UserIdParams,
      response: { 200: Type.Array(TradeOfferResponse) },
    }),
    async (request) => {
      const { orgId, timezone } = request.auth;
      const user = await findUserOrThrow(app.db, orgId, request.params.user_id);
      const localNow = nowLocal(timezone);
      const rows = await listOpenTradeOffersOf(app.db, orgId, user.id, localNow);
      const users = await findUsersByIds(
        app.db,
        orgId,
        rows.map((row) => row.requesting_user_id),
      );
      return rows.map((row) => {
        const requester = users.get(row.requesting_user_id);
        return {
          id: row.id,
          requesting_user: { id: row.requesting_user_id, name: requester ? fullName(requester) : '' },
          start: row.start,
          end: row.end,
          swap_start: row.swap_start,
          swap_end: row.swap_end,
          status: tradeStatus(row, localNow),
          notes: row.notes,
          answer: row.answer === 'accepted' ? ('accepted' as const) : ('offered' as const),
        };
      });
    },
  );

  app.post(
    '/users/:user_id/trade_offers/:id',
    route('answerUserTradeOffer', 'Accepts or declines a trade offered to the user (extension)', {
      ...EXTENSION,
      description:
        'Only a trade whose offered_user_ids name the user (404 otherwise); answered as PATCH /trades/{id} ' +
        'with action accept or decline and this user_id would be, with its 422s.',
      params: AnswerParams,
      body: AnswerBody,
      response: { 200: SuccessBody },
    }),
    async (request) => {
      const { orgId } = request.auth;
      const { user_id: userId, id } = request.params;
      await findUserOrThrow(app.db, orgId, userId);
      if (!(await findTradeUser(app.db, orgId, id, userId))) throw notFound('TradeOffer');
      const { answer } = request.body;
      const status = await withTransaction(app.db, (trx) =>
        actOnTrade(trx, request.auth, id, { action: answer, user_id: userId }),
      );
      return ok(
        answer === 'decline'
          ? `You declined trade #${id}.`
          : status === 'filled'
            ? `You accepted trade #${id}: it is filled, the shift is yours.`
            : `You accepted trade #${id}; an admin approves it.`,
      );
    },
  );
};

export default routes;
