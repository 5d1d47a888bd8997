import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { withTransaction } from '../../core/db/transaction.js';
import { EXTENSION, errorResponses, IdParams, ok, SuccessWithId, routeOptions } from '../../core/schemas.js';
import { createMiscHour, listMiscHours, loadMiscHour, removeMiscHour } from './rules.js';
import { CreateMiscHourBody, MiscHourResponse, MiscHoursQuery } from './schemas.js';

const tags = ['Misc hours'];
const route = routeOptions(tags);

const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/misc_hours',
    route(
      'listMiscHours',
      'Misc hours dated from start to end (dates, default today), optionally of one user (extension)',
      { ...EXTENSION, querystring: MiscHoursQuery, response: { 200: Type.Array(MiscHourResponse) } },
    ),
    (request) => listMiscHours(app.db, request, request.query),
  );

  for (const path of ['/misc_hours/:id', '/misc/:id']) {
    app.get(
      path,
      {
        schema: {
          ...EXTENSION,
          operationId: path.startsWith('/misc/') ? 'getMisc' : 'getMiscHour',
          summary: 'One misc-hours entry; `/misc/{id}` is the href GET /schedule gives it (extension)',
          tags,
          params: IdParams,
          response: { 200: MiscHourResponse, ...errorResponses },
        },
      },
      (request) => loadMiscHour(app.db, request, request.params.id),
    );
  }

  app.post(
    '/misc_hours',
    route('createMiscHour', 'Adds misc hours for a user on a date (extension)', {
      ...EXTENSION,
      description: '`length` in hours, or `start` and `end` (datetimes) from which the length is taken.',
      body: CreateMiscHourBody,
      response: { 201: MiscHourResponse },
    }),
    async (request, reply) => {
      const item = await withTransaction(app.db, async (trx) => {
        const id = await createMiscHour(trx, request.auth, request.body);
        return loadMiscHour(trx, request, id);
      });
      reply.status(201);
      return item;
    },
  );

  app.delete(
    '/misc_hours/:id',
    route('deleteMiscHour', 'Removes a misc-hours entry (extension)', {
      ...EXTENSION,
      params: IdParams,
      response: { 200: SuccessWithId },
    }),
    async (request) => {
      await withTransaction(app.db, (trx) => removeMiscHour(trx, request.auth, request.params.id));
      return { ...ok('Misc hours removed successfully.'), id: request.params.id };
    },
  );
};

export default routes;
