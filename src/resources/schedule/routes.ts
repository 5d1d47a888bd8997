import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../../core/schemas.js';
import { buildSchedule } from './rules.js';
import { ScheduleQuery, ScheduleResponse } from './schemas.js';

const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/schedule',
    {
      schema: {
        operationId: 'getSchedule',
        summary: 'The schedule of a period, one object per day',
        description:
          'Each day: assignments with their shifts (rotation occurrences are `recurring: true`), approved time off, finalized callbacks, accepted trades, misc hours, notes and activities.',
        tags: ['Schedule'],
        querystring: ScheduleQuery,
        response: { 200: ScheduleResponse, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { start, end } = request.query;
      return reply.sendCached(`schedule|${start}|${end}`, () => buildSchedule(app.db, request, request.query));
    },
  );
};

export default routes;
