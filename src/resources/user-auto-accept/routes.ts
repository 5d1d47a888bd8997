import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { withTransaction } from '../../core/db/transaction.js';
import { EXTENSION, UserIdParams, routeOptions } from '../../core/schemas.js';
import { findUserOrThrow } from '../users/repository.js';
import { findAutoAccept } from './repository.js';
import { replaceAutoAcceptSettings, serializeAutoAccept } from './rules.js';
import { AutoAcceptBody, AutoAcceptResponse } from './schemas.js';

const tags = ['Users', 'Callbacks'];
const route = routeOptions(tags);

/** A user's opt-in to auto-accepted callback offers (docs/workflows.md, "Auto-accept"). */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/users/:user_id/callback_auto_accept',
    route('getCallbackAutoAccept', "A user's auto-accept setting for callback offers (extension)", {
      ...EXTENSION,
      params: UserIdParams,
      response: { 200: AutoAcceptResponse },
    }),
    async (request) => {
      const user = await findUserOrThrow(app.db, request.auth.orgId, request.params.user_id);
      return serializeAutoAccept(user.id, await findAutoAccept(app.db, request.auth.orgId, user.id));
    },
  );

  app.put(
    '/users/:user_id/callback_auto_accept',
    route('replaceCallbackAutoAccept', "Replaces a user's auto-accept setting for callback offers (extension)", {
      ...EXTENSION,
      description:
        'With `enabled`, the callback runner accepts an offer for the user at once when the callback is on ' +
        'one of `assignment_ids` (null: any) and starts on one of `weekdays` (1 Monday … 7 Sunday; null: ' +
        'any) and its hours keep the auto-accepted hours of its week or month within `max_hours`.',
      params: UserIdParams,
      body: AutoAcceptBody,
      response: { 200: AutoAcceptResponse },
    }),
    async (request) => {
      const { orgId } = request.auth;
      const user = await findUserOrThrow(app.db, orgId, request.params.user_id);
      return withTransaction(app.db, async (trx) => {
        await replaceAutoAcceptSettings(trx, request.auth, user, request.body);
        return serializeAutoAccept(user.id, await findAutoAccept(trx, orgId, user.id));
      });
    },
  );
};

export default routes;
