import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { IdParams, SuccessBody, SuccessWithId, routeOptions } from '../../core/schemas.js';
import { findLabelOrThrow, listLabels } from './repository.js';
import { changeLabel, createLabel, deleteLabel } from './rules.js';
import { LabelBody, LabelResponse } from './schemas.js';
import { serializeLabel } from './serialize.js';
import { changedWithId, createdWithId, deletedOk } from '../../core/write-handlers.js';

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
    createdWithId(app.db, createLabel, (body) => `Added new label ${body.label}.`),
  );

  app.post(
    '/labels/:id',
    route('updateLabel', 'Changes a label; position is kept when omitted', {
      params: IdParams,
      body: LabelBody,
      response: { 200: SuccessWithId },
    }),
    changedWithId(app.db, changeLabel, (body) => `Updated label ${body.label}.`),
  );

  app.delete(
    '/labels/:id',
    route('deleteLabel', 'Deletes a label', { params: IdParams, response: { 200: SuccessBody } }),
    deletedOk(app.db, deleteLabel, (name) => `Deleted label ${name}.`),
  );
};

export default routes;
