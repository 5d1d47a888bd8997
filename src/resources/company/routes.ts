import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { writeLog } from '../../core/audit.js';
import { withTransaction, type Db } from '../../core/db/transaction.js';
import { EXTENSION, ok, routeOptions } from '../../core/schemas.js';
import { nowUtc } from '../../core/time.js';
import { findCompany, PROFILE_FIELDS, saveProfile } from './repository.js';
import { ChangeCompanyBody, CompanyResponse, CompanyWriteResponse } from './schemas.js';

const tags = ['Company'];
const route = routeOptions(tags);

async function loadCompany(db: Db, orgId: number): Promise<CompanyResponse> {
  const { organization, profile } = await findCompany(db, orgId);
  const details = Object.fromEntries(PROFILE_FIELDS.map((field) => [field, profile?.[field] ?? null]));
  return {
    id: organization.id,
    name: organization.name,
    timezone: organization.timezone,
    ...details,
  } as CompanyResponse;
}

const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/company',
    route('getCompany', 'The organization: id, name, time zone and contact details', {
      response: { 200: CompanyResponse },
    }),
    async (request) => loadCompany(app.db, request.auth.orgId),
  );

  app.patch(
    '/company',
    route('changeCompany', 'Changes the contact details of the organization; only the fields sent change (extension)', {
      ...EXTENSION,
      body: ChangeCompanyBody,
      response: { 200: CompanyWriteResponse },
    }),
    async (request) => {
      const company = await withTransaction(app.db, async (trx) => {
        const { profile } = await findCompany(trx, request.auth.orgId);
        await saveProfile(trx, request.auth.orgId, profile, request.body, nowUtc());
        await writeLog(trx, request.auth, {
          action: 'company.updated',
          description: `updated the company details (${Object.keys(request.body).join(', ') || 'nothing'})`,
          entityType: 'company',
          entityId: request.auth.orgId,
          before: profile ?? null,
          after: request.body,
        });
        return loadCompany(trx, request.auth.orgId);
      });
      return { ...ok('Company updated successfully.'), company };
    },
  );
};

export default routes;
