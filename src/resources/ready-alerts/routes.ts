import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { withTransaction } from '../../core/db/transaction.js';
import { created, EXTENSION, IdParams, routeOptions } from '../../core/schemas.js';
import { formatIsoOffset } from '../../core/time.js';
import { findUsersByIds } from '../users/repository.js';
import { userRefOrNull } from '../users/serialize.js';
import { findAlertOrThrow, listDeliveries } from './repository.js';
import { sendReadyAlert } from './rules.js';
import { ReadyAlertBody, ReadyAlertCreated, ReadyAlertResponse } from './schemas.js';

const tags = ['Ready alerts'];
const route = routeOptions(tags);

const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/ready_alerts',
    route(
      'sendReadyAlert',
      'Sends a ready alert to all users, the users of callback lists (title), groups, roles ' +
        '(classification) or given users',
      {
        description:
          'Answers 201 with the alert id and the number of recipients. Every delivery is recorded (GET ' +
          "/ready_alerts/{id}); with `email` true an e-mail goes to each recipient's first address after the " +
          'request, through the configured SMTP server.',
        body: ReadyAlertBody,
        response: { 201: ReadyAlertCreated },
      },
    ),
    async (request, reply) => {
      const alert = await withTransaction(app.db, (trx) => sendReadyAlert(trx, request.auth, request.body));
      if (alert.email) app.workers.alertMailer.dispatch({ orgId: request.auth.orgId, alertId: alert.id });
      reply.status(201);
      const noun = alert.recipients === 1 ? 'user' : 'users';
      return created(`Ready alert sent to ${alert.recipients} ${noun}.`, {
        id: alert.id,
        recipients: alert.recipients,
      });
    },
  );

  app.get(
    '/ready_alerts/:id',
    route('getReadyAlert', 'A ready alert with the state of each delivery (extension)', {
      ...EXTENSION,
      params: IdParams,
      response: { 200: ReadyAlertResponse },
    }),
    async (request) => {
      const { orgId, timezone } = request.auth;
      const alert = await findAlertOrThrow(app.db, orgId, request.params.id);
      const deliveries = await listDeliveries(app.db, orgId, alert.id);
      const users = await findUsersByIds(app.db, orgId, [alert.sender_id, ...deliveries.map((d) => d.user_id)]);
      return {
        id: alert.id,
        type: alert.type,
        ids: alert.target_ids === null ? null : (JSON.parse(alert.target_ids) as Array<number | string>),
        body: alert.body,
        sender: userRefOrNull(request, users, alert.sender_id),
        email: alert.email === 1,
        created_at: formatIsoOffset(alert.created_at, timezone)!,
        deliveries: deliveries.map((delivery) => ({
          user: userRefOrNull(request, users, delivery.user_id),
          channel: delivery.channel,
          address: delivery.address,
          state: delivery.state,
          error: delivery.error,
          updated_at: formatIsoOffset(delivery.updated_at, timezone)!,
        })),
      };
    },
  );
};

export default routes;
