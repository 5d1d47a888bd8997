import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sentFields } from '../../core/fields.js';
import { changeOrganizationSettings } from '../../core/org-settings.js';
import { EXTENSION, ok, routeOptions } from '../../core/schemas.js';
import { normalizeLocalDateTime } from '../../core/time.js';
import { findWorkPeriod, updateWorkPeriod } from './repository.js';
import { checkWorkPeriodStart } from './rules.js';
import { ChangeWorkPeriodBody, WorkPeriodResponse, WorkPeriodWriteResponse } from './schemas.js';

const tags = ['Work period'];
const route = routeOptions(tags);

const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/work_period',
    route(
      'getWorkPeriod',
      'The FLSA 7(k) work period overtime is counted over: days, threshold hours and start (extension)',
      { ...EXTENSION, response: { 200: WorkPeriodResponse } },
    ),
    async (request) => findWorkPeriod(app.db, request.auth.orgId),
  );

  app.patch(
    '/work_period',
    {
      config: {
        ruleChecks: async (request, accepted: Partial<ChangeWorkPeriodBody>) =>
          checkWorkPeriodStart(accepted.start, request.auth.timezone),
      },
      ...route('changeWorkPeriod', 'Changes the work period; only the fields sent change (extension)', {
        ...EXTENSION,
        body: ChangeWorkPeriodBody,
        response: { 200: WorkPeriodWriteResponse },
      }),
    },
    async (request) => {
      checkWorkPeriodStart(request.body.start, request.auth.timezone);
      const sent = sentFields(request.body, ['days', 'threshold_hours', 'start', 'trade_hours_count_for'] as const);
      const changes = { ...sent, ...(sent.start === undefined ? {} : { start: normalizeLocalDateTime(sent.start) }) };
      const workPeriod = await changeOrganizationSettings(app.db, request.auth, changes, {
        action: 'work_period.updated',
        describe: (fields) => `the work period (${fields})`,
        find: findWorkPeriod,
        update: updateWorkPeriod,
      });
      return { ...ok('Work period updated successfully.'), work_period: workPeriod };
    },
  );
};

export default routes;
