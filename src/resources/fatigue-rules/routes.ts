import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sentFields } from '../../core/fields.js';
import { changeOrganizationSettings } from '../../core/org-settings.js';
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
      const rules = await changeOrganizationSettings(app.db, request.auth, changes, {
        action: 'fatigue_rules.updated',
        describe: (fields) => `the fatigue rules (${fields}).`,
        find: findFatigueRules,
        update: updateFatigueRules,
      });
      return { ...ok('Fatigue rules updated successfully.'), fatigue_rules: rules };
    },
  );
};

export default routes;
