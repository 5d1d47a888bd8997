import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { withTransaction } from '../../core/db/transaction.js';
import { created, EXTENSION, IdParams, SuccessBody, routeOptions } from '../../core/schemas.js';
import { findPartnerUserOrThrow, listPartnerUsers, type PartnerMapping } from './repository.js';
import { changePartnerUser, mapPartnerUser, unmapPartnerUser } from './rules.js';
import {
  ChangePartnerUserBody,
  CreatePartnerUserBody,
  PartnerUserResponse,
  PartnerUserWriteResponse,
} from './schemas.js';
import { changedWithId, deletedOk } from '../../core/write-handlers.js';

const tags = ['Partner'];
const route = routeOptions(tags);

/** `service_company_id` is the organization's id. */
function serializeMapping(row: PartnerMapping): PartnerUserResponse {
  return {
    id: row.partner_user_id,
    first_name: row.first_name,
    last_name: row.last_name,
    service_user_id: row.service_user_id,
    service_company_id: row.organization_id,
    partner_customer_id: row.partner_customer_id,
  };
}

const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/partner/users',
    route('listPartnerUsers', 'Users mapped to the partner training system', {
      response: { 200: Type.Array(PartnerUserResponse) },
    }),
    async (request) => (await listPartnerUsers(app.db, request.auth.orgId)).map(serializeMapping),
  );

  app.get(
    '/partner/users/:id',
    route('getPartnerUser', 'One mapping, by partner user id', {
      params: IdParams,
      response: { 200: PartnerUserResponse },
    }),
    async (request) => serializeMapping(await findPartnerUserOrThrow(app.db, request.auth.orgId, request.params.id)),
  );

  app.post(
    '/partner/users',
    route('mapPartnerUser', 'Maps a partner user id onto a user (extension)', {
      ...EXTENSION,
      body: CreatePartnerUserBody,
      response: { 201: PartnerUserWriteResponse },
    }),
    async (request, reply) => {
      await withTransaction(app.db, (trx) => mapPartnerUser(trx, request.auth, request.body));
      reply.status(201);
      return created(`Mapped partner user ${request.body.id}.`, { id: request.body.id });
    },
  );

  app.patch(
    '/partner/users/:id',
    route('changePartnerUser', 'Changes a mapping; only the fields sent change (extension)', {
      ...EXTENSION,
      params: IdParams,
      body: ChangePartnerUserBody,
      response: { 200: PartnerUserWriteResponse },
    }),
    changedWithId(app.db, changePartnerUser, (_body, id) => `Updated partner user ${id}.`),
  );

  app.delete(
    '/partner/users/:id',
    route('unmapPartnerUser', 'Removes a mapping (extension)', {
      ...EXTENSION,
      params: IdParams,
      response: { 200: SuccessBody },
    }),
    deletedOk(app.db, unmapPartnerUser, (_removed, id) => `Removed partner user ${id}.`),
  );
};

export default routes;
