import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { withTransaction } from '../../core/db/transaction.js';
import { sentFields } from '../../core/fields.js';
import { changeOrganizationSettings } from '../../core/org-settings.js';
import {
  created,
  EXTENSION,
  errorResponses,
  IdParams,
  ok,
  SuccessWithId,
  routeOptions,
  UserIdParams,
} from '../../core/schemas.js';
import { normalizeLocalDateTime, nowLocal } from '../../core/time.js';
import { findUsersByIds } from '../users/repository.js';
import { findTradeOrThrow, listTrades, listTradeUsers } from './repository.js';
import { findTradeLimits, updateTradeLimits } from './limits.js';
import { assertShiftCurrent } from '../time-offs/expected-shift.js';
import { readTradeBalance } from './payback.js';
import { actOnTrade, checkTradeFields, createTrade, deleteTrade } from './rules.js';
import {
  type CreateTradeBody,
  CreateTradesBody,
  DeleteTradeQuery,
  ListTradesQuery,
  TradeActionBody,
  TradeBalanceResponse,
  TradeLimitsResponse,
  TradeLimitsWriteResponse,
  ChangeTradeLimitsBody,
  TradeDetailResponse,
  TradeResponse,
  TradeUserResponse,
  TradeWriteResponse,
} from './schemas.js';
import { serializeTrade, serializeTradeDetail, serializeTradeUser, usersOfTrades } from './serialize.js';

const tags = ['Trades'];
const route = routeOptions(tags);

const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/trades',
    route('listTrades', 'Trades (non-deleted), by start; optional start/end overlap and user_id filters (extension)', {
      querystring: ListTradesQuery,
      response: { 200: Type.Array(TradeResponse) },
    }),
    async (request) => {
      const { orgId, timezone } = request.auth;
      const q = request.query;
      const trades = await listTrades(app.db, orgId, {
        start: q.start === undefined ? undefined : normalizeLocalDateTime(q.start),
        end: q.end === undefined ? undefined : normalizeLocalDateTime(q.end),
        userId: q.user_id,
      });
      const users = await findUsersByIds(app.db, orgId, usersOfTrades(trades));
      const now = nowLocal(timezone);
      return trades.map((trade) => serializeTrade(request, trade, users, timezone, now));
    },
  );

  app.get(
    '/trades/:id',
    route('getTrade', 'One trade with its accepting and approving users (extension)', {
      ...EXTENSION,
      params: IdParams,
      response: { 200: TradeDetailResponse },
    }),
    async (request) => {
      const { orgId, timezone } = request.auth;
      const trade = await findTradeOrThrow(app.db, orgId, request.params.id);
      const users = await findUsersByIds(app.db, orgId, usersOfTrades([trade]));
      return serializeTradeDetail(request, trade, users, timezone, nowLocal(timezone));
    },
  );

  app.get(
    '/trades/:id/users',
    route('listTradeUsers', 'Users the trade was offered to or who answered it, with their responses', {
      params: IdParams,
      response: { 200: Type.Array(TradeUserResponse) },
    }),
    async (request) => {
      const { orgId, timezone } = request.auth;
      await findTradeOrThrow(app.db, orgId, request.params.id);
      const rows = await listTradeUsers(app.db, orgId, request.params.id);
      const users = await findUsersByIds(
        app.db,
        orgId,
        rows.map((r) => r.user_id),
      );
      return rows.map((row) => serializeTradeUser(request, row, users.get(row.user_id), timezone));
    },
  );

  app.get(
    '/trade_limits',
    route('getTradeLimits', "The department's trade limits: trades per person per work period, owed hours", {
      ...EXTENSION,
      response: { 200: TradeLimitsResponse },
    }),
    async (request) => findTradeLimits(app.db, request.auth.orgId),
  );

  app.patch(
    '/trade_limits',
    route('changeTradeLimits', 'Changes the trade limits; only the fields sent change, null removes one (extension)', {
      ...EXTENSION,
      description: 'See docs/workflows.md#trade-limits.',
      body: ChangeTradeLimitsBody,
      response: { 200: TradeLimitsWriteResponse },
    }),
    async (request) => {
      const changes = sentFields(request.body, ['trades_per_period', 'owed_hours'] as const);
      const limits = await changeOrganizationSettings(app.db, request.auth, changes, {
        action: 'trade_limits.updated',
        describe: (fields) => `the trade limits (${fields}).`,
        find: findTradeLimits,
        update: updateTradeLimits,
      });
      return { ...ok('Trade limits updated successfully.'), trade_limits: limits };
    },
  );

  app.get(
    '/users/:user_id/trade_balance',
    route('getTradeBalance', 'Hours owed on trades between the user and each counterpart (extension)', {
      ...EXTENSION,
      description:
        'Derived from the filled trades themselves (docs/workflows.md#trade-payback): each trade makes the ' +
        'person whose hours were worked owe them to the one who worked; a trade back settles them.',
      params: UserIdParams,
      response: { 200: TradeBalanceResponse },
    }),
    async (request) => readTradeBalance(app.db, request, request.params.user_id),
  );

  app.post(
    '/trades',
    {
      config: {
        ruleChecks: (request, accepted: Partial<CreateTradeBody>) => {
          // a swap with one end there: the other may have been refused, so the pair is not judged
          const { swap_start: swapStart, swap_end: swapEnd, ...rest } = accepted;
          const pair = (swapStart === undefined) === (swapEnd === undefined);
          return checkTradeFields(app.db, request.auth.orgId, pair ? accepted : rest);
        },
      },
      ...route('createTrade', 'Requests a trade; with accepting_user_id it starts accepted, otherwise pending', {
        description:
          'The body is one trade or, as the sample writes it, an array of trades (all requested or none; ' +
          '`id` is the first, `ids` all). With `approve: true` (extension) the approving user approves it in ' +
          'the same transaction: requested and filled, or nothing written.',
        body: CreateTradesBody,
        response: { 201: TradeWriteResponse },
      }),
    },
    async (request, reply) => {
      const bodies = Array.isArray(request.body) ? request.body : [request.body];
      const requested = await withTransaction(app.db, async (trx) => {
        const trades = [];
        for (const body of bodies) {
          // the board's move or swap names the shift it read: refused (409) once it has moved or ended
          if (body.for_shift) await assertShiftCurrent(trx, request.auth, body.requesting_user, body.for_shift);
          trades.push(await createTrade(trx, request.auth, body));
        }
        return trades;
      });
      reply.status(201);
      const { id, status } = requested[0]!;
      if (!Array.isArray(request.body)) {
        const message = request.body.approve ? `Trade #${id} is ${status}` : `Trade #${id} requested`;
        return created(message, { id, trade_status: status });
      }
      const names = requested.map((trade) => `#${trade.id}`).join(', ');
      return created(`Trade${requested.length > 1 ? 's' : ''} ${names} requested`, {
        id,
        trade_status: status,
        ids: requested.map((trade) => trade.id),
      });
    },
  );

  const actionSchema = (method: string) => ({
    operationId: `${method}Trade`,
    summary: 'Moves a trade through its states: accept or decline (user_id), approve or deny (admin_id), cancel',
    tags,
    params: IdParams,
    body: TradeActionBody,
    response: { 200: TradeWriteResponse, ...errorResponses },
  });
  const act = async (request: {
    params: { id: number };
    body: TradeActionBody;
    auth: Parameters<typeof actOnTrade>[1];
  }) => {
    const { id } = request.params;
    const status = await withTransaction(app.db, (trx) => actOnTrade(trx, request.auth, id, request.body));
    return ok(`Trade #${id} is ${status}`, { id, trade_status: status });
  };
  app.patch('/trades/:id', { schema: actionSchema('patch') }, act);
  app.put('/trades/:id', { schema: actionSchema('put') }, act);

  app.delete(
    '/trades/:id',
    route('deleteTrade', 'Deletes a trade that has not been filled', {
      params: IdParams,
      querystring: DeleteTradeQuery,
      response: { 200: SuccessWithId },
    }),
    async (request) => {
      const { id } = request.params;
      await withTransaction(app.db, (trx) => deleteTrade(trx, request.auth, id, request.query.admin_id));
      return ok(`Trade #${id} deleted`, { id });
    },
  );
};

export default routes;
