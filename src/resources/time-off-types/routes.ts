import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { withTransaction } from '../../core/db/transaction.js';
import { created, EXTENSION, IdParams, ok, SuccessBody, SuccessWithId, routeOptions } from '../../core/schemas.js';
import { findTimeOffTypeOrThrow, listTimeOffTypes } from './repository.js';
import { changeTimeOffType, createTimeOffType, deleteTimeOffType } from './rules.js';
import {
  CreateTimeOffTypeBody,
  TimeOffTypeDetailResponse,
  TimeOffTypeResponse,
  UpdateTimeOffTypeBody,
} from './schemas.js';
import { serializeTimeOffType, serializeTimeOffTypeDetail } from './serialize.js';

const tags = ['Time off types'];
const route = routeOptions(tags);

const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/time_off_types',
    route('listTimeOffTypes', 'Time off types (non-deleted)', { response: { 200: Type.Array(TimeOffTypeResponse) } }),
    async (request) =>
      (await listTimeOffTypes(app.db, request.auth.orgId)).map((row) => serializeTimeOffType(request, row)),
  );

  app.post(
    '/time_off_types',
    route('createTimeOffType', 'Creates a time off type', {
      description:
        '`label` is required; the other fields default to no work code, no buffer, no limit, #3f5647 on ' +
        '#FFFFFF, false.',
      body: CreateTimeOffTypeBody,
      response: { 201: SuccessWithId },
    }),
    async (request, reply) => {
      const id = await withTransaction(app.db, (trx) => createTimeOffType(trx, request.auth, request.body));
      reply.status(201);
      return created('Time off type created successfully.', { id });
    },
  );

  app.get(
    '/time_off_types/:id',
    route(
      'getTimeOffType',
      'One time off type, with allow_negative, default_day_hours and counts_as_worked (extension)',
      { ...EXTENSION, params: IdParams, response: { 200: TimeOffTypeDetailResponse } },
    ),
    async (request) =>
      serializeTimeOffTypeDetail(request, await findTimeOffTypeOrThrow(app.db, request.auth.orgId, request.params.id)),
  );

  app.patch(
    '/time_off_types/:id',
    route('updateTimeOffType', 'Changes any subset of a time off type (extension)', {
      ...EXTENSION,
      params: IdParams,
      body: UpdateTimeOffTypeBody,
      response: { 200: SuccessWithId },
    }),
    async (request) => {
      await withTransaction(app.db, (trx) => changeTimeOffType(trx, request.auth, request.params.id, request.body));
      return { ...ok('Time off type updated successfully.'), id: request.params.id };
    },
  );

  app.delete(
    '/time_off_types/:id',
    route('deleteTimeOffType', 'Soft-deletes a time off type (extension)', {
      ...EXTENSION,
      params: IdParams,
      response: { 200: SuccessBody },
    }),
    async (request) => {
      await withTransaction(app.db, (trx) => deleteTimeOffType(trx, request.auth, request.params.id));
      return ok('Time off type removed successfully.');
    },
  );
};

export default routes;
