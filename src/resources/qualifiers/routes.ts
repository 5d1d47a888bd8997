import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { withTransaction } from '../../core/db/transaction.js';
import { href } from '../../core/pagination.js';
import { EXTENSION, IdParams, ok, SuccessBody, SuccessWithId, routeOptions } from '../../core/schemas.js';
import { fullName } from '../users/serialize.js';
import { findQualifierOrThrow, listActiveQualifiers, listQualifierUsers } from './repository.js';
import { assertUndelete, changeQualifier, createQualifier, deleteQualifier, restoreQualifier } from './rules.js';
import {
  AdminQuery,
  ChangeQualifierWithAdmin,
  CreateQualifierBody,
  InsertedResponse,
  QualifierListItem,
  QualifierSingle,
  QualifierUser,
  RestoreQualifierBody,
  RestoreResponse,
} from './schemas.js';
import { qualifierTitle, serializeQualifierListItem, serializeQualifierSingle } from './serialize.js';

const tags = ['Qualifiers'];
const route = routeOptions(tags);

const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/qualifiers',
    route('listQualifiers', 'Active qualifiers', { response: { 200: Type.Array(QualifierListItem) } }),
    async (request) => {
      const rows = await listActiveQualifiers(app.db, request.auth.orgId);
      return rows.map((row) => serializeQualifierListItem(row, request.auth.timezone));
    },
  );

  app.get(
    '/qualifiers/:id',
    route('getQualifier', 'One qualifier (single form; also when deleted)', {
      params: IdParams,
      response: { 200: QualifierSingle },
    }),
    async (request) =>
      serializeQualifierSingle(
        await findQualifierOrThrow(app.db, request.auth.orgId, request.params.id),
        request.auth.timezone,
      ),
  );

  app.post(
    '/qualifiers',
    route('createQualifier', 'Creates a qualifier', {
      description: 'Answers 201 `{inserted: 1}`; the Location header names the new qualifier.',
      body: CreateQualifierBody,
      response: { 201: InsertedResponse },
    }),
    async (request, reply) => {
      const id = await withTransaction(app.db, (trx) => createQualifier(trx, request.auth, request.body));
      reply.status(201).header('Location', href(request, `/qualifiers/${id}`));
      return { inserted: 1 };
    },
  );

  app.delete(
    '/qualifiers/:id',
    route('deleteQualifier', 'Soft-deletes a qualifier (409 when already deleted)', {
      params: IdParams,
      querystring: AdminQuery,
      response: { 200: SuccessBody },
    }),
    async (request) => {
      const qualifier = await withTransaction(app.db, (trx) =>
        deleteQualifier(trx, request.auth, request.params.id, request.query.admin_id),
      );
      return ok(`Qualifier ${qualifierTitle(qualifier)} deleted successfully.`);
    },
  );

  app.put(
    '/qualifiers/:id',
    route('restoreQualifier', 'Restores a deleted qualifier (`undelete` truthy); 409 when it is not deleted', {
      params: IdParams,
      body: RestoreQualifierBody,
      response: { 200: RestoreResponse },
    }),
    async (request) => {
      assertUndelete(request.body.undelete);
      const qualifier = await withTransaction(app.db, (trx) =>
        restoreQualifier(trx, request.auth, request.params.id, request.body.admin_id),
      );
      return {
        ...ok(`Qualifier ${qualifierTitle(qualifier)} restored successfully.`),
        qualifier: { id: qualifier.id, name: qualifier.name, shortcode: qualifier.shortcode },
      };
    },
  );

  app.patch(
    '/qualifiers/:id',
    route('changeQualifier', 'Changes a qualifier; only the fields sent change (extension)', {
      ...EXTENSION,
      params: IdParams,
      body: ChangeQualifierWithAdmin,
      response: { 200: SuccessWithId },
    }),
    async (request) => {
      await withTransaction(app.db, (trx) => changeQualifier(trx, request.auth, request.params.id, request.body));
      const qualifier = await findQualifierOrThrow(app.db, request.auth.orgId, request.params.id);
      return { ...ok(`Qualifier ${qualifierTitle(qualifier)} updated successfully.`), id: qualifier.id };
    },
  );

  app.get(
    '/qualifiers/:id/users',
    route('listQualifierUsers', 'Users holding the qualifier, with their ranking', {
      params: IdParams,
      response: { 200: Type.Array(QualifierUser) },
    }),
    async (request) => {
      await findQualifierOrThrow(app.db, request.auth.orgId, request.params.id);
      const rows = await listQualifierUsers(app.db, request.auth.orgId, request.params.id);
      return rows.map((row) => ({ id: row.id, name: fullName(row), ranking: row.ranking }));
    },
  );
};

export default routes;
