import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { TSchema } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import { timeOffViewer, viewerKey } from '../../core/masked-types.js';
import { errorResponses } from '../../core/schemas.js';
import { buildScheduleJson } from './rules.js';
import { ScheduleParts, ScheduleQuery, ScheduleResponse, type ScheduleJson } from './schemas.js';

/** The route's serializers (fast-json-stringify, compiled once per schema and kept by Fastify). */
function jsonOf(reply: FastifyReply): ScheduleJson {
  const of = (schema: TSchema) => reply.compileSerializationSchema(schema) as (value: unknown) => string;
  return Object.fromEntries(
    Object.entries(ScheduleParts).map(([name, schema]) => [name, of(schema)]),
  ) as unknown as ScheduleJson;
}

const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/schedule',
    {
      schema: {
        operationId: 'getSchedule',
        summary: 'The schedule of a period, one object per day',
        description:
          'Each day: assignments with their shifts (rotation occurrences are `recurring: true`), approved ' +
          'time off, finalized callbacks, accepted trades, misc hours, notes and activities.',
        tags: ['Schedule'],
        querystring: ScheduleQuery,
        response: { 200: ScheduleResponse, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { start, end } = request.query;
      // kept per viewer: a masked type's name depends on who reads (core/masked-types.ts)
      const viewer = viewerKey(timeOffViewer(request.auth));
      return reply.sendCachedJson(`schedule|${viewer}|${start}|${end}`, () =>
        buildScheduleJson(app.dbHandle, request, request.query, jsonOf(reply), app.engineCache),
      );
    },
  );
};

export default routes;
