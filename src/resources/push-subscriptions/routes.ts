import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { withTransaction } from '../../core/db/transaction.js';
import { EXTENSION, ok, SuccessBody, UserIdParams, routeOptions } from '../../core/schemas.js';
import { utcToLocal } from '../../core/time.js';
import { findUserOrThrow } from '../users/repository.js';
import { WebhookTargets } from '../webhooks/targets.js';
import { findPushSubscriptionOrThrow, listPushSubscriptions } from './repository.js';
import { checkSubscription, subscribe, unsubscribe } from './rules.js';
import { PushKeyResponse, PushSubscriptionResponse, SubscribeBody, UserSubscriptionParams } from './schemas.js';
import type { PushSubscriptionRow } from './table.js';
import { vapidDetails } from './vapid.js';

const tags = ['Users', 'Callbacks'];
const route = routeOptions(tags);

const serialize = (row: PushSubscriptionRow, timezone: string) => ({
  id: row.id,
  endpoint: row.endpoint,
  created_at: utcToLocal(row.created_at, timezone),
});

/** Web Push subscriptions of the installed board (docs/extensions.md): callback offers reach the device. */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  const targets = new WebhookTargets(app.config);

  app.get(
    '/push/key',
    route('getPushKey', "The server's VAPID public key for Web Push subscriptions (extension)", {
      ...EXTENSION,
      response: { 200: PushKeyResponse },
    }),
    async () => {
      const vapid = await vapidDetails(app.db, app.config.push);
      return { enabled: vapid !== undefined, public_key: vapid?.publicKey ?? null };
    },
  );

  app.get(
    '/users/:user_id/push_subscriptions',
    route('listPushSubscriptions', "A user's devices subscribed to callback offers by Web Push (extension)", {
      ...EXTENSION,
      params: UserIdParams,
      response: { 200: Type.Array(PushSubscriptionResponse) },
    }),
    async (request) => {
      const { orgId, timezone } = request.auth;
      const user = await findUserOrThrow(app.db, orgId, request.params.user_id);
      return (await listPushSubscriptions(app.db, orgId, user.id)).map((row) => serialize(row, timezone));
    },
  );

  app.post(
    '/users/:user_id/push_subscriptions',
    route('createPushSubscription', 'Subscribes a device to callback offers by Web Push (extension)', {
      ...EXTENSION,
      description:
        "The body is the browser's `PushSubscription.toJSON()`. An endpoint stored before (for anyone) is replaced.",
      params: UserIdParams,
      body: SubscribeBody,
      response: { 201: PushSubscriptionResponse },
    }),
    async (request, reply) => {
      const { orgId, timezone } = request.auth;
      const user = await findUserOrThrow(app.db, orgId, request.params.user_id);
      const endpoint = await checkSubscription(request.body, targets);
      const row = await withTransaction(app.db, async (trx) => {
        const id = await subscribe(trx, request.auth, user, request.body, endpoint);
        return findPushSubscriptionOrThrow(trx, orgId, user.id, id);
      });
      reply.status(201);
      return serialize(row, timezone);
    },
  );

  app.delete(
    '/users/:user_id/push_subscriptions/:id',
    route('deletePushSubscription', 'Removes a Web Push subscription (extension)', {
      ...EXTENSION,
      params: UserSubscriptionParams,
      response: { 200: SuccessBody },
    }),
    async (request) => {
      const user = await findUserOrThrow(app.db, request.auth.orgId, request.params.user_id);
      await withTransaction(app.db, (trx) => unsubscribe(trx, request.auth, user, request.params.id));
      return ok('Push subscription removed successfully.');
    },
  );
};

export default routes;
