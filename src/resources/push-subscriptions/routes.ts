import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { withTransaction } from '../../core/db/transaction.js';
import { EXTENSION, errorResponses, ok, SuccessBody, UserIdParams } from '../../core/schemas.js';
import { utcToLocal } from '../../core/time.js';
import { findUserOrThrow } from '../users/repository.js';
import { WebhookTargets } from '../webhooks/targets.js';
import { findPushSubscriptionOrThrow, listPushSubscriptions } from './repository.js';
import { checkSubscription, subscribe, unsubscribe } from './rules.js';
import { PushKeyResponse, PushSubscriptionResponse, SubscribeBody, UserSubscriptionParams } from './schemas.js';
import type { PushSubscriptionRow } from './table.js';
import { vapidDetails } from './vapid.js';

const tags = ['Users', 'Callbacks'];

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
    {
      schema: {
        ...EXTENSION,
        operationId: 'getPushKey',
        summary: "The server's VAPID public key for Web Push subscriptions (extension)",
        tags,
        response: { 200: PushKeyResponse, ...errorResponses },
      },
    },
    async () => {
      const vapid = await vapidDetails(app.db, app.config.push);
      return { enabled: vapid !== undefined, public_key: vapid?.publicKey ?? null };
    },
  );

  app.get(
    '/users/:user_id/push_subscriptions',
    {
      schema: {
        ...EXTENSION,
        operationId: 'listPushSubscriptions',
        summary: "A user's devices subscribed to callback offers by Web Push (extension)",
        tags,
        params: UserIdParams,
        response: { 200: Type.Array(PushSubscriptionResponse), ...errorResponses },
      },
    },
    async (request) => {
      const { orgId, timezone } = request.auth;
      const user = await findUserOrThrow(app.db, orgId, request.params.user_id);
      return (await listPushSubscriptions(app.db, orgId, user.id)).map((row) => serialize(row, timezone));
    },
  );

  app.post(
    '/users/:user_id/push_subscriptions',
    {
      schema: {
        ...EXTENSION,
        operationId: 'createPushSubscription',
        summary: 'Subscribes a device to callback offers by Web Push (extension)',
        description:
          "The body is the browser's `PushSubscription.toJSON()`. An endpoint stored before (for anyone) is replaced.",
        tags,
        params: UserIdParams,
        body: SubscribeBody,
        response: { 201: PushSubscriptionResponse, ...errorResponses },
      },
    },
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
    {
      schema: {
        ...EXTENSION,
        operationId: 'deletePushSubscription',
        summary: 'Removes a Web Push subscription (extension)',
        tags,
        params: UserSubscriptionParams,
        response: { 200: SuccessBody, ...errorResponses },
      },
    },
    async (request) => {
      const user = await findUserOrThrow(app.db, request.auth.orgId, request.params.user_id);
      await withTransaction(app.db, (trx) => unsubscribe(trx, request.auth, user, request.params.id));
      return ok('Push subscription removed successfully.');
    },
  );
};

export default routes;
