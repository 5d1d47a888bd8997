import type { FastifyRequest } from 'fastify';
import type { SessionUser } from '../core/auth/context.js';
import { forbidden } from '../core/errors.js';
import { isOwnPendingTimeOff } from './repository.js';

/**
 * What a web app user who is not an admin may do on /v1 (admins act on the whole organization):
 * read the schedule and its catalogs, and act on their own requests only. Keys are
 * `METHOD route-url`; anything not listed answers 403.
 */
type Check = (request: FastifyRequest, user: SessionUser) => boolean | Promise<boolean>;

const anyone: Check = () => true;
const selfInPath: Check = (request, user) => Number((request.params as { user_id?: unknown }).user_id) === user.userId;
const selfInBody: Check = (request, user) =>
  Number((request.body as { user_id?: unknown } | undefined)?.user_id) === user.userId;
/**
 * A trade the member requests for their own work, offered to people (`offered_user_ids`) who answer it
 * themselves, then an admin: never accepted for someone else (`accepting_user_id`) nor approved in the request.
 */
const ownTradeRequest: Check = (request, user) => {
  const body = request.body as
    | { requesting_user?: unknown; approve?: unknown; accepting_user_id?: unknown }
    | undefined;
  return (
    !Array.isArray(body) &&
    Number(body?.requesting_user) === user.userId &&
    body?.approve !== true &&
    (body?.accepting_user_id ?? null) === null
  );
};
const ownPendingTimeOff: Check = (request, user) => {
  // the path is not validated yet: an id that is no whole number names no time off of theirs
  const id = Number((request.params as { id: unknown }).id);
  return Number.isSafeInteger(id) && isOwnPendingTimeOff(request.server.db, request.auth.orgId, id, user.userId);
};

const READABLE = [
  '/schedule',
  '/day_labels',
  '/visual_cycles',
  '/work_types',
  '/time_off_types',
  '/off_limits',
  '/time_off_blackouts',
  '/group_minimums',
  '/labels',
  '/qualifiers',
  '/assignments',
  '/company',
  '/users',
  '/signup_events',
  '/signup_events/:id',
  '/signup_events/:id/users',
  '/callbacks',
  '/callbacks/:id',
  '/callbacks/:id/users',
];

export const MEMBER_RULES: Record<string, Check> = {
  ...Object.fromEntries(READABLE.map((path) => [`GET /v1${path}`, anyone])),
  'GET /v1/users/:user_id': selfInPath,
  'GET /v1/users/:user_id/time_offs': selfInPath,
  'POST /v1/users/:user_id/time_offs': selfInPath,
  'GET /v1/users/:user_id/timeoff/accrual/bank': selfInPath,
  'GET /v1/users/:user_id/trade_balance': selfInPath,
  'POST /v1/trades': ownTradeRequest,
  // a trade offered to them: 404 unless its offered_user_ids name this member (user-trade-offers/)
  'GET /v1/users/:user_id/trade_offers': selfInPath,
  'POST /v1/users/:user_id/trade_offers/:id': selfInPath,
  'DELETE /v1/time_offs/:id': ownPendingTimeOff,
  'POST /v1/signup_events/:id/users': selfInBody,
  'DELETE /v1/signup_events/:id/users/:user_id': selfInPath,
  'GET /v1/push/key': anyone,
  'GET /v1/changes': anyone,
  'GET /v1/users/:user_id/push_subscriptions': selfInPath,
  'POST /v1/users/:user_id/push_subscriptions': selfInPath,
  'DELETE /v1/users/:user_id/push_subscriptions/:id': selfInPath,
  'GET /v1/users/:user_id/callback_auto_accept': selfInPath,
  'PUT /v1/users/:user_id/callback_auto_accept': selfInPath,
  'GET /v1/users/:user_id/callback_settings': selfInPath,
  'PUT /v1/users/:user_id/callback_settings': selfInPath,
  'GET /v1/users/:user_id/callback_offers': selfInPath,
  'POST /v1/users/:user_id/callback_offers/:id': selfInPath,
  'GET /v1/users/:user_id/callback_decisions': selfInPath,
  // vacation bidding: the pick is refused unless it is this member's own turn (bid-rounds/rules.ts)
  'GET /v1/bid_rounds': anyone,
  'GET /v1/bid_rounds/:id': anyone,
  'POST /v1/bid_rounds/:id/picks': selfInBody,
};

/**
 * preValidation on /v1: a session user who is not an admin passes only the rules above, before the
 * request is validated, so that a refused body's 422 (which names its rules' findings, a username
 * taken) never answers a request this user may not make.
 */
export async function enforceMemberAccess(request: FastifyRequest): Promise<void> {
  const user = request.auth?.sessionUser;
  if (!user || user.isAdmin) return;
  const method = request.method === 'HEAD' ? 'GET' : request.method;
  const check = MEMBER_RULES[`${method} ${request.routeOptions.url}`];
  if (!check || !(await check(request, user))) {
    throw forbidden('Only an admin may do this; you may read the schedule and act on your own requests.');
  }
}
