import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { EXTENSION, IdParams, SuccessBody, SuccessWithId, routeOptions } from '../../core/schemas.js';
import { findTimeOffTypeOrThrow, listTimeOffTypes } from './repository.js';
import { changeTimeOffType, createTimeOffType, deleteTimeOffType } from './rules.js';
import {
  CreateTimeOffTypeBody,
  TimeOffTypeDetailResponse,
  TimeOffTypeResponse,
  UpdateTimeOffTypeBody,
} from './schemas.js';
import { serializeTimeOffType, serializeTimeOffTypeDetail } from './serialize.js';
import { changedWithId, createdWithId, deletedOk } from '../../core/write-handlers.js';

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
    createdWithId(app.db, createTimeOffType, 'Time off type created successfully.'),
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
    changedWithId(app.db, changeTimeOffType, 'Time off type updated successfully.'),
  );

  app.delete(
    '/time_off_types/:id',
    route('deleteTimeOffType', 'Soft-deletes a time off type (extension)', {
      ...EXTENSION,
      params: IdParams,
      response: { 200: SuccessBody },
    }),
    deletedOk(app.db, deleteTimeOffType, 'Time off type removed successfully.'),
  );
};

export default routes;
