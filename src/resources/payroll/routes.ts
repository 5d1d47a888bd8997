import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { UserIdParams, routeOptions } from '../../core/schemas.js';
import { findUserOrInvalid, findUserOrThrow } from '../users/repository.js';
import { payrollRows } from './rules.js';
import { PayrollQuery, PayrollRow, UserPayrollQuery } from './schemas.js';

const tags = ['Payroll'];
const route = routeOptions(tags);
const description =
  'Rows: `work shift` (worked shifts of work-shift assignments starting in the period, less approved time ' +
  'off, breaks not counted), `time off` (approved time off starting in the period), `misc` (misc hours dated ' +
  'in the period).';

const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/payroll',
    route('listPayroll', 'Payroll rows of a period', {
      description,
      querystring: PayrollQuery,
      response: { 200: Type.Array(PayrollRow) },
    }),
    async (request) => {
      const { start, end, user_id: userId } = request.query;
      if (userId !== undefined) await findUserOrInvalid(app.db, request.auth.orgId, userId);
      return payrollRows(app.db, request.auth.orgId, request.auth.timezone, { start, end, userId });
    },
  );

  app.get(
    '/payroll/:user_id',
    route('getUserPayroll', 'Payroll rows of one user for a period', {
      description,
      params: UserIdParams,
      querystring: UserPayrollQuery,
      response: { 200: Type.Array(PayrollRow) },
    }),
    async (request) => {
      await findUserOrThrow(app.db, request.auth.orgId, request.params.user_id);
      const { start, end } = request.query;
      return payrollRows(app.db, request.auth.orgId, request.auth.timezone, {
        start,
        end,
        userId: request.params.user_id,
      });
    },
  );
};

export default routes;
