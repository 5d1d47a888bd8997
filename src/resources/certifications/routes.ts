import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { Db } from '../../core/db/transaction.js';
import { withTransaction } from '../../core/db/transaction.js';
import { EXTENSION, IdParams, ok, SuccessBody, SuccessWithId, routeOptions } from '../../core/schemas.js';
import { sentFields } from '../../core/fields.js';
import { changeOrganizationSettings } from '../../core/org-settings.js';
import { formatDate, todayIn } from '../../core/time.js';
import { findUsersByIds } from '../users/repository.js';
import { userRef, userRefOrNull } from '../users/serialize.js';
import { expiringCertifications, findExpiryNotices, updateExpiryNotices } from './expiry.js';
import { findCertificationOrThrow, listCertifications } from './repository.js';
import { changeCertification, createCertification, deleteCertification } from './rules.js';
import {
  CertificationResponse,
  ChangeExpiryNoticesBody,
  ExpiryNoticesResponse,
  ExpiryNoticesWriteResponse,
  ChangeCertificationBody,
  CreateCertificationBody,
  ExpiringQuery,
  ExpiringResponse,
} from './schemas.js';
import type { CertificationRow } from './table.js';
import { createdWithId, deletedOk } from '../../core/write-handlers.js';

const tags = ['Certifications'];
const route = routeOptions(tags);

async function serializeCertifications(
  db: Db,
  request: FastifyRequest,
  rows: CertificationRow[],
): Promise<CertificationResponse[]> {
  const creators = await findUsersByIds(
    db,
    request.auth.orgId,
    rows.map((row) => row.created_by),
  );
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    cert_id: row.cert_id,
    created_by: userRefOrNull(request, creators, row.created_by),
  }));
}

const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/certifications',
    route('listCertifications', 'Certifications (non-deleted)', {
      response: { 200: Type.Array(CertificationResponse) },
    }),
    async (request) => serializeCertifications(app.db, request, await listCertifications(app.db, request.auth.orgId)),
  );

  app.get(
    '/certifications/expiring',
    route('listExpiringCertifications', 'Who loses which certification when, and what staffing it costs', {
      ...EXTENSION,
      description: 'See docs/contract-rules.md#certification-expiry.',
      querystring: ExpiringQuery,
      response: { 200: ExpiringResponse },
    }),
    async (request) => {
      const { orgId, timezone } = request.auth;
      const days = request.query.days ?? 60;
      const asOf = formatDate(todayIn(timezone));
      const items = await expiringCertifications(app.db, orgId, timezone, days, asOf);
      const users = await findUsersByIds(
        app.db,
        orgId,
        items.map((item) => item.user_id),
      );
      return {
        as_of: asOf,
        days,
        data: items.map(({ user_id: userId, ...item }) => ({ user: userRef(request, users.get(userId)!), ...item })),
      };
    },
  );

  app.get(
    '/certifications/expiry_notices',
    route('getExpiryNotices', 'When certification expiry notices go out: days before the expiry (extension)', {
      ...EXTENSION,
      description: 'See docs/contract-rules.md#certification-expiry. Default 60, 30 and 7.',
      response: { 200: ExpiryNoticesResponse },
    }),
    async (request) => findExpiryNotices(app.db, request.auth.orgId),
  );

  app.patch(
    '/certifications/expiry_notices',
    route('changeExpiryNotices', 'Sets the days before an expiry that notices go out (extension)', {
      ...EXTENSION,
      description: 'See docs/contract-rules.md#certification-expiry. Admins only.',
      body: ChangeExpiryNoticesBody,
      response: { 200: ExpiryNoticesWriteResponse },
    }),
    async (request) => {
      const changes = sentFields(request.body, ['days'] as const);
      const notices = await changeOrganizationSettings(app.db, request.auth, changes, {
        action: 'expiry_notices.updated',
        describe: (fields) => `the certification expiry notices (${fields}).`,
        find: findExpiryNotices,
        update: updateExpiryNotices,
      });
      return { ...ok('Expiry notices updated successfully.'), expiry_notices: notices };
    },
  );

  app.get(
    '/certifications/:id',
    route('getCertification', 'One certification (404 once deleted)', {
      params: IdParams,
      response: { 200: CertificationResponse },
    }),
    async (request) => {
      const row = await findCertificationOrThrow(app.db, request.auth.orgId, request.params.id);
      return (await serializeCertifications(app.db, request, [row]))[0];
    },
  );

  app.post(
    '/certifications',
    route('createCertification', 'Creates a certification', {
      body: CreateCertificationBody,
      response: { 201: SuccessWithId },
    }),
    createdWithId(app.db, createCertification, (body) => `Added new certification ${body.name}.`),
  );

  app.put(
    '/certifications/:id',
    route('updateCertification', 'Changes a certification; only the fields sent change', {
      params: IdParams,
      body: ChangeCertificationBody,
      response: { 200: SuccessWithId },
    }),
    async (request) => {
      const name = await withTransaction(app.db, (trx) =>
        changeCertification(trx, request.auth, request.params.id, request.body),
      );
      return { ...ok(`Updated certification ${name}.`), id: request.params.id };
    },
  );

  app.delete(
    '/certifications/:id',
    route('deleteCertification', 'Soft-deletes a certification (400 when already deleted)', {
      params: IdParams,
      response: { 200: SuccessBody },
    }),
    deletedOk(app.db, deleteCertification, (name) => `Deleted certification ${name}.`),
  );
};

export default routes;
