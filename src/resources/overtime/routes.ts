import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { href } from '../../core/pagination.js';
import { EXTENSION, routeOptions } from '../../core/schemas.js';
import { overtimeOf, periodOf } from '../../scheduling/index.js';
import { findUserOrInvalid, findUsersByIds } from '../users/repository.js';
import { fullName } from '../users/serialize.js';
import { findWorkPeriod } from '../work-period/repository.js';
import { OvertimeQuery, OvertimeRowResponse } from './schemas.js';

const tags = ['Payroll'];
const route = routeOptions(tags);

const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/overtime',
    route('listOvertime', 'Regular and overtime hours per user and work period overlapping start to end (extension)', {
      ...EXTENSION,
      description:
        'One row per user with hours and per work period (GET /work_period) overlapping [start, end). ' +
        'Rules: docs/schedule.md, "Work periods and overtime".',
      querystring: OvertimeQuery,
      response: { 200: Type.Array(OvertimeRowResponse) },
    }),
    async (request) => {
      const { orgId, timezone } = request.auth;
      const period = periodOf(request.query);
      const userId = request.query.user_id;
      if (userId !== undefined) await findUserOrInvalid(app.db, orgId, userId);
      const rows = await overtimeOf(app.db, orgId, timezone, await findWorkPeriod(app.db, orgId), {
        ...period,
        userId,
      });
      const users = await findUsersByIds(
        app.db,
        orgId,
        rows.map((row) => row.user_id),
      );
      return rows.map(({ user_id: id, ...row }) => {
        const user = users.get(id);
        return {
          user: { id, href: href(request, `/users/${id}`), name: user ? fullName(user) : '' },
          employee_id: user?.employee_id ?? null,
          ...row,
        };
      });
    },
  );
};

export default routes;
