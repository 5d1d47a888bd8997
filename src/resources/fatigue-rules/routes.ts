import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { writeLog } from '../../core/audit.js';
import { withTransaction } from '../../core/db/transaction.js';
import { sentFields } from '../../core/fields.js';
import { EXTENSION, ok, routeOptions } from '../../core/schemas.js';
import { findFatigueRules, updateFatigueRules } from './repository.js';
import { ChangeFatigueRulesBody, FatigueRulesResponse, FatigueRulesWriteResponse } from './schemas.js';

const route = routeOptions(['Fatigue rules']);

const FIELDS = [
  'max_consecutive_hours',
  'stretch_break_hours',
  'rest_hours',
  'rest_after_hours',
  'rest_within_hours',
  'max_period_hours',
] as const;

const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/fatigue_rules',
    route('getFatigueRules', "The department's fatigue rules: how long anyone may work (extension)", {
      ...EXTENSION,
      description: 'See docs/contract-rules.md#fatigue-rules. Null: the rule is off (the default).',
      response: { 200: FatigueRulesResponse },
    }),
    async (request) => findFatigueRules(app.db, request.auth.orgId),
  );

  app.patch(
    '/fatigue_rules',
    route('changeFatigueRules', 'Changes the fatigue rules; only the fields sent change, null turns one off', {
      ...EXTENSION,
      description: 'See docs/contract-rules.md#fatigue-rules. Admins only.',
      body: ChangeFatigueRulesBody,
      response: { 200: FatigueRulesWriteResponse },
    }),
    async (request) => {
      const changes = sentFields(request.body, FIELDS);
      const rules = await withTransaction(app.db, async (trx) => {
        const before = await findFatigueRules(trx, request.auth.orgId);
        await updateFatigueRules(trx, request.auth.orgId, changes);
        await writeLog(trx, request.auth, {
          action: 'fatigue_rules.updated',
          description: `updated the fatigue rules (${Object.keys(changes).join(', ') || 'nothing'}).`,
          entityType: 'organization',
          entityId: request.auth.orgId,
          before,
          after: changes,
        });
        return findFatigueRules(trx, request.auth.orgId);
      });
      return { ...ok('Fatigue rules updated successfully.'), fatigue_rules: rules };
    },
  );
};

export default routes;
