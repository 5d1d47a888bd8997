import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sentFields } from '../../core/fields.js';
import { changeOrganizationSettings } from '../../core/org-settings.js';
import { EXTENSION, ok, routeOptions } from '../../core/schemas.js';
import { findPayrollClose, updatePayrollClose } from './repository.js';
import { ChangePayrollCloseBody, PayrollCloseResponse, PayrollCloseWriteResponse } from './schemas.js';

const route = routeOptions(['Payroll']);

const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/payroll_close',
    route('getPayrollClose', 'The last date of the closed payroll periods (extension)', {
      ...EXTENSION,
      description: 'See docs/time-off.md, "Closed payroll periods".',
      response: { 200: PayrollCloseResponse },
    }),
    async (request) => findPayrollClose(app.db, request.auth.orgId),
  );

  app.patch(
    '/payroll_close',
    route('changePayrollClose', 'Closes payroll through a date, or reopens it (null); admins only', {
      ...EXTENSION,
      description:
        'See docs/time-off.md, "Closed payroll periods". A bank adjustment caused by a change that reaches into ' +
        'a closed date lands in the open period, flagged with that date in `GET /payroll`.',
      body: ChangePayrollCloseBody,
      response: { 200: PayrollCloseWriteResponse },
    }),
    async (request) => {
      const changes = sentFields(request.body, ['closed_through'] as const);
      const close = await changeOrganizationSettings(app.db, request.auth, changes, {
        action: 'payroll.closed',
        describe: (fields) => `the payroll close (${fields}).`,
        find: findPayrollClose,
        update: updatePayrollClose,
      });
      return { ...ok('Payroll close updated successfully.'), payroll_close: close };
    },
  );
};

export default routes;
