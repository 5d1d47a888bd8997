import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { addRouteHook, CHANGE_METHODS, takesAnyOf } from './core/route-hooks.js';
import fp from 'fastify-plugin';
import { type CallbackRunner, createCallbackRunner } from './resources/callbacks/runner/runner.js';
import { createForcedHireNotifier } from './resources/forced-hires/notify.js';
import { ForcedHireWorker } from './resources/forced-hires/worker.js';
import { ExpiryNotifier } from './resources/certifications/notifier.js';
import { sendTurnNotices } from './resources/bid-rounds/notify.js';
import { ChannelNotifier } from './resources/callbacks/channels/notifier.js';
import { AlertMailer } from './resources/ready-alerts/mailer.js';
import { hasPendingEmails } from './resources/ready-alerts/repository.js';
import { WebhookTargets } from './resources/webhooks/targets.js';
import { WebhookWorker } from './resources/webhooks/worker.js';

/** The background workers of the process; routes nudge them (`app.workers.webhooks.wake()`). */
export interface Workers {
  /** Delivers the outbox to webhook endpoints. */
  webhooks: WebhookWorker;
  /** Sends the e-mails of ready alerts after their request. */
  alertMailer: AlertMailer;
  /** Advances the callbacks of lists with a contact window. */
  callbacks: CallbackRunner;
  /** Starts forced hires for vacancies whose callback ended unfilled; tells the people forced. */
  forcedHires: ForcedHireWorker;
  /** Tells holders and admins of certifications about to expire. */
  expiryNotices: ExpiryNotifier;
  /** Tells a member their vacation bidding turn began (`runOnce(nowMs)`). */
  bidTurns: ChannelNotifier<number>;
}

declare module 'fastify' {
  interface FastifyInstance {
    workers: Workers;
  }
}

/** The routes whose changes the callback runner acts on: callbacks, their offers' answers, SMS replies. */
const RUNNER_ROUTE = /\/(callbacks?|offers|sms)\b/;

/**
 * Makes the background workers, starts them once the server is ready and stops them when it
 * closes, before the database closes (onClose hooks run last-added first).
 */
async function workersPlugin(app: FastifyInstance): Promise<void> {
  const workers: Workers = {
    webhooks: new WebhookWorker(
      app.db,
      app.config.webhooks,
      new WebhookTargets(app.config),
      app.log,
      app.config.secretKey,
    ),
    alertMailer: new AlertMailer(app.db, app.config.smtp, app.log),
    callbacks: createCallbackRunner(app),
    forcedHires: new ForcedHireWorker(app.db, createForcedHireNotifier(app), app.log, {
      pollMs: app.config.callbackRunnerPollMs,
    }),
    expiryNotices: new ExpiryNotifier(app.db, app.config, app.log),
    bidTurns: new ChannelNotifier(app.db, app.config, app.log, sendTurnNotices, {
      pollMs: app.config.callbackRunnerPollMs,
      name: 'bid turn notices',
    }),
  };
  app.decorate('workers', workers);
  // a callback started, answered or cancelled in this process: the runner acts now, not at its next poll
  // (other processes' changes reach it through the database's announcements on PostgreSQL)
  const runnerRoute = (route: RouteOptions) => RUNNER_ROUTE.test(route.url) && takesAnyOf(CHANGE_METHODS)(route);
  addRouteHook(app, 'onResponse', runnerRoute, async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.method !== 'GET' && request.method !== 'HEAD' && reply.statusCode < 400) workers.callbacks.wake();
  });
  app.addHook('onReady', async () => {
    await workers.webhooks.start();
    // e-mails left pending by a stopped process are sent once the server is up again
    if (await hasPendingEmails(app.db)) workers.alertMailer.dispatch();
    workers.callbacks.start();
    workers.forcedHires.start();
    workers.expiryNotices.start();
    workers.bidTurns.start();
  });
  app.addHook('onClose', async () => {
    await Promise.all([
      workers.webhooks.stop(),
      workers.alertMailer.close(),
      workers.callbacks.stop(),
      workers.forcedHires.stop(),
      workers.expiryNotices.stop(),
      workers.bidTurns.stop(),
    ]);
  });
}

export default fp(workersPlugin, { name: 'crewplan-workers' });
