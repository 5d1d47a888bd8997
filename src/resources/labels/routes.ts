import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { withTransaction } from '../../core/db/transaction.js';
import { created, IdParams, ok, SuccessBody, SuccessWithId, routeOptions } from '../../core/schemas.js';
import { findLabelOrThrow, listLabels } from './repository.js';
import { changeLabel, createLabel, deleteLabel } from './rules.js';
import { LabelBody, LabelResponse } from './schemas.js';
import { serializeLabel } from './serialize.js';

const tags = ['Labels'];
const route = routeOptions(tags);

const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/labels',
    route('listLabels', 'Labels of the organization, in display order', {
      response: { 200: Type.Array(LabelResponse) },
    }),
    async (request) => (await listLabels(app.db, request.auth.orgId)).map(serializeLabel),
  );

  app.get(
    '/labels/:id',
    route('getLabel', 'One label', { params: IdParams, response: { 200: LabelResponse } }),
    async (request) => serializeLabel(await findLabelOrThrow(app.db, request.auth.orgId, request.params.id)),
  );

  app.post(
    '/labels',
    route('createLabel', 'Creates a label (position defaults to the end of the list)', {
      body: LabelBody,
      response: { 201: SuccessWithId },
    }),
    async (request, reply) => {
      const id = await withTransaction(app.db, (trx) => createLabel(trx, request.auth, request.body));
      reply.status(201);
      return created(`Added new label ${request.body.label}.`, { id });
    },
  );

  app.post(
    '/labels/:id',
    route('updateLabel', 'Changes a label; position is kept when omitted', {
      params: IdParams,
      body: LabelBody,
      response: { 200: SuccessWithId },
    }),
    async (request) => {
      await withTransaction(app.db, (trx) => changeLabel(trx, request.auth, request.params.id, request.body));
      return { ...ok(`Updated label ${request.body.label}.`), id: request.params.id };
    },
  );

  app.delete(
    '/labels/:id',
    route('deleteLabel', 'Deletes a label', { params: IdParams, response: { 200: SuccessBody } }),
    async (request) => {
      const name = await withTransaction(app.db, (trx) => deleteLabel(trx, request.auth, request.params.id));
      return ok(`Deleted label ${name}.`);
    },
  );
};

export default routes;
