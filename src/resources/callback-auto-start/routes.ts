import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { withTransaction, type Db } from '../../core/db/transaction.js';
import { EXTENSION, routeOptions } from '../../core/schemas.js';
import { autoStartLists, findAutoStart } from './repository.js';
import { replaceAutoStartSettings } from './rules.js';
import { AutoStartBody, AutoStartResponse } from './schemas.js';

const tags = ['Callbacks'];
const route = routeOptions(tags);

async function settingsOf(db: Db, orgId: number): Promise<AutoStartResponse> {
  const [row, lists] = await Promise.all([findAutoStart(db, orgId), autoStartLists(db, orgId)]);
  return {
    enabled: row?.enabled === 1,
    within_days: row?.within_days ?? 7,
    initiated_by: row?.initiated_by ?? null,
    lists,
  };
}

/** The organization's auto-start of callbacks for vacancies (docs/workflows.md, "Auto-start"); admins only. */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/callback_auto_start',
    route(
      'getCallbackAutoStart',
      'Whether callbacks start by themselves for vacancies, and on which lists (extension)',
      { ...EXTENSION, response: { 200: AutoStartResponse } },
    ),
    async (request) => settingsOf(app.db, request.auth.orgId),
  );

  app.put(
    '/callback_auto_start',
    route('replaceCallbackAutoStart', 'Replaces the auto-start of callbacks for vacancies (extension)', {
      ...EXTENSION,
      description:
        "With `enabled`, the callback runner starts one callback for each vacancy (the engine's, as GET " +
        '/vacancies) of an assignment in `lists` whose occurrence starts within `within_days`, on that ' +
        "assignment's list, named as initiated by `initiated_by`.",
      body: AutoStartBody,
      response: { 200: AutoStartResponse },
    }),
    async (request) => {
      const { orgId } = request.auth;
      return withTransaction(app.db, async (trx) => {
        await replaceAutoStartSettings(trx, request.auth, request.body);
        return settingsOf(trx, orgId);
      });
    },
  );
};

export default routes;
