import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { Gauge, type Registry } from 'prom-client';
import type { Db } from '../../core/db/transaction.js';
import { withTransaction } from '../../core/db/transaction.js';
import { EXTENSION, IdParams, SuccessBody, routeOptions } from '../../core/schemas.js';
import { findEndpointOrThrow, listDeliveries, listEndpoints, outboxDepth } from './repository.js';
import { checkWebhookUrl, createWebhook, deleteWebhook } from './rules.js';
import {
  CreatedWebhookResponse,
  CreateWebhookBody,
  DeliveryQuery,
  DeliveryResponse,
  WebhookResponse,
} from './schemas.js';
import { serializeDelivery, serializeWebhook } from './serialize.js';
import { WebhookTargets } from './targets.js';
import { deletedOk } from '../../core/write-handlers.js';

const tags = ['Webhooks'];
const route = routeOptions(tags);

function registerOutboxGauge(registry: Registry, db: Db): void {
  new Gauge({
    name: 'crewplan_webhook_outbox_depth',
    help: 'Outbox events not yet handled by an active webhook endpoint (summed over endpoints)',
    registers: [registry],
    async collect() {
      this.set(await outboxDepth(db));
    },
  });
}

const routes: FastifyPluginAsyncTypebox = async (app) => {
  const targets = new WebhookTargets(app.config);
  if (app.metrics) registerOutboxGauge(app.metrics.registry, app.db);

  app.post(
    '/webhooks',
    route('createWebhook', 'Registers a webhook endpoint (extension)', {
      ...EXTENSION,
      description:
        'The endpoint receives every event created after registration whose type matches `event_types`, ' +
        'POSTed as JSON with `X-Crewplan-Signature: v1=<hex HMAC-SHA256 of "<timestamp>.<body>">` and ' +
        '`X-Crewplan-Timestamp`. The secret is shown only in this response.',
      body: CreateWebhookBody,
      response: { 201: CreatedWebhookResponse },
    }),
    async (request, reply) => {
      const url = await checkWebhookUrl(request.body.url, targets);
      const row = await withTransaction(app.db, async (trx) => {
        const { id, secret } = await createWebhook(trx, request.auth, request.body, url, app.config.secretKey);
        return { ...(await findEndpointOrThrow(trx, request.auth.orgId, id)), secret };
      });
      app.workers.webhooks.wake();
      reply.status(201);
      return { ...serializeWebhook(row, request.auth.timezone), secret: row.secret };
    },
  );

  app.get(
    '/webhooks',
    route('listWebhooks', 'Webhook endpoints of the organization (extension)', {
      ...EXTENSION,
      response: { 200: Type.Array(WebhookResponse) },
    }),
    async (request) =>
      (await listEndpoints(app.db, request.auth.orgId)).map((row) => serializeWebhook(row, request.auth.timezone)),
  );

  app.get(
    '/webhooks/:id',
    route('getWebhook', 'One webhook endpoint (extension)', {
      ...EXTENSION,
      params: IdParams,
      response: { 200: WebhookResponse },
    }),
    async (request) =>
      serializeWebhook(await findEndpointOrThrow(app.db, request.auth.orgId, request.params.id), request.auth.timezone),
  );

  app.delete(
    '/webhooks/:id',
    route('deleteWebhook', 'Removes a webhook endpoint; undelivered events are dropped (extension)', {
      ...EXTENSION,
      params: IdParams,
      response: { 200: SuccessBody },
    }),
    deletedOk(app.db, deleteWebhook, 'Webhook removed successfully.'),
  );

  app.get(
    '/webhooks/:id/deliveries',
    route('listWebhookDeliveries', 'Delivery attempts of a webhook endpoint, newest first (extension)', {
      ...EXTENSION,
      description: 'One row per attempt. Page with `before_id` (the last id seen) and `limit` (default 50).',
      params: IdParams,
      querystring: DeliveryQuery,
      response: { 200: Type.Array(DeliveryResponse) },
    }),
    async (request) => {
      const { orgId, timezone } = request.auth;
      await findEndpointOrThrow(app.db, orgId, request.params.id);
      const rows = await listDeliveries(app.db, orgId, request.params.id, {
        beforeId: request.query.before_id,
        limit: request.query.limit ?? 50,
      });
      return rows.map((row) => serializeDelivery(row, timezone));
    },
  );
};

export default routes;
