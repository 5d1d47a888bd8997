import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { writeLog } from '../../core/audit.js';
import { lockUsers } from '../../core/db/locks.js';
import { withTransaction } from '../../core/db/transaction.js';
import { invalidParams } from '../../core/errors.js';
import { EXTENSION, UserIdParams, routeOptions } from '../../core/schemas.js';
import { nowUtc } from '../../core/time.js';
import { findUserOrThrow } from '../users/repository.js';
import { fullName } from '../users/serialize.js';
import { findCallbackSettings, saveCallbackSettings, type CallbackSettings } from './repository.js';
import { CallbackSettingsBody, CallbackSettingsResponse } from './schemas.js';

const tags = ['Callbacks'];
const route = routeOptions(tags);

/** A user's callback contact settings: the channel the callback runner tries first and do-not-disturb hours. */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/users/:user_id/callback_settings',
    route('getCallbackSettings', "The user's callback contact settings: preferred channel and do-not-disturb hours", {
      ...EXTENSION,
      params: UserIdParams,
      response: { 200: CallbackSettingsResponse },
    }),
    async (request) => {
      const { orgId } = request.auth;
      await findUserOrThrow(app.db, orgId, request.params.user_id);
      return {
        user_id: request.params.user_id,
        ...(await findCallbackSettings(app.db, orgId, request.params.user_id)),
      };
    },
  );

  app.put(
    '/users/:user_id/callback_settings',
    route('replaceCallbackSettings', "Replaces the user's callback contact settings; fields left out become null", {
      ...EXTENSION,
      params: UserIdParams,
      body: CallbackSettingsBody,
      response: { 200: CallbackSettingsResponse },
    }),
    async (request) => {
      const { user_id: userId } = request.params;
      const body = request.body;
      const settings: CallbackSettings = {
        contact_method: body.contact_method ?? null,
        do_not_disturb_start: body.do_not_disturb_start ?? null,
        do_not_disturb_end: body.do_not_disturb_end ?? null,
      };
      if ((settings.do_not_disturb_start === null) !== (settings.do_not_disturb_end === null))
        throw invalidParams('The do not disturb start and do not disturb end must be given together.');
      if (settings.do_not_disturb_start !== null && settings.do_not_disturb_start === settings.do_not_disturb_end)
        throw invalidParams('The do not disturb end must differ from the do not disturb start.');
      await withTransaction(app.db, async (trx) => {
        const user = await findUserOrThrow(trx, request.auth.orgId, userId);
        await lockUsers(trx, [userId]);
        const before = await findCallbackSettings(trx, request.auth.orgId, userId);
        await saveCallbackSettings(trx, request.auth.orgId, userId, settings, nowUtc());
        await writeLog(trx, request.auth, {
          action: 'user.callback_settings_replaced',
          description: `replaced the callback contact settings of ${fullName(user)}`,
          entityType: 'user',
          entityId: userId,
          before,
          after: settings,
        });
      });
      return { user_id: userId, ...settings };
    },
  );
};

export default routes;
