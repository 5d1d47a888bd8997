import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { withTransaction } from '../../core/db/transaction.js';
import { created, EXTENSION, IdParams, routeOptions, SuccessWith, SuccessWithId } from '../../core/schemas.js';
import { createBidRound, listBidRoundRows, moveBidRound, pickInRound, readBidRound } from './rules.js';
import { BidPickBody, BidRoundResponse, CreateBidRoundBody } from './schemas.js';
import { createdWithId } from '../../core/write-handlers.js';

const tags = ['Vacation bidding'];
const route = routeOptions(tags);

/** Vacation bidding (docs/contract-rules.md, "Vacation bidding"): admins write, members read and pick. */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/bid_rounds',
    route('createBidRound', 'Makes a bid round; its members are ordered by seniority (extension)', {
      ...EXTENSION,
      body: CreateBidRoundBody,
      response: { 201: SuccessWithId },
    }),
    createdWithId(app.db, createBidRound, 'Bid round created successfully.'),
  );

  app.get(
    '/bid_rounds',
    route('listBidRounds', 'Bid rounds with whose turn it is (extension)', {
      ...EXTENSION,
      response: { 200: Type.Array(BidRoundResponse) },
    }),
    async (request) => {
      const rows = await listBidRoundRows(app.db, request.auth.orgId);
      return Promise.all(rows.map((row) => readBidRound(app.db, request.auth, row.id)));
    },
  );

  app.get(
    '/bid_rounds/:id',
    route('getBidRound', 'A bid round: members by seniority, their picks, whose turn until when (extension)', {
      ...EXTENSION,
      params: IdParams,
      response: { 200: BidRoundResponse },
    }),
    async (request) => readBidRound(app.db, request.auth, request.params.id),
  );

  for (const move of ['open', 'pause', 'close'] as const) {
    app.post(
      `/bid_rounds/:id/${move}`,
      route(`${move}BidRound`, `${move[0]!.toUpperCase()}${move.slice(1)}s a bid round (extension)`, {
        ...EXTENSION,
        description:
          'open: a draft round begins at opens_at, a paused one resumes with what was left of the turn; ' +
          'pause: the turn clock stands still; close: no more picks. 422 from a state the move does not leave.',
        params: IdParams,
        response: { 200: BidRoundResponse },
      }),
      async (request) => {
        await withTransaction(app.db, (trx) => moveBidRound(trx, request.auth, request.params.id, move));
        return readBidRound(app.db, request.auth, request.params.id);
      },
    );
  }

  app.post(
    '/bid_rounds/:id/picks',
    route('pickInBidRound', 'The member whose turn it is picks days off (extension)', {
      ...EXTENSION,
      description:
        'By the member whose turn it is (an admin may pick for them): the days become approved time off ' +
        '(the bank is charged, the off limits apply: 422 naming a refusing rule) and the next turn begins. ' +
        "422 naming whose turn it is when it is not user_id's.",
      params: IdParams,
      body: BidPickBody,
      response: { 201: SuccessWith({ id: Type.Integer(), time_off_id: Type.Integer() }) },
    }),
    async (request, reply) => {
      const timeOffId = await withTransaction(app.db, (trx) =>
        pickInRound(trx, request.auth, request.params.id, request.body),
      );
      reply.status(201);
      return created('Pick taken.', { id: request.params.id, time_off_id: timeOffId });
    },
  );
};

export default routes;
