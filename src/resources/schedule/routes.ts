import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, type TSchema } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import { errorResponses } from '../../core/schemas.js';
import { ScheduleCallback } from '../callbacks/schemas.js';
import { ScheduleTrade } from '../trades/schemas.js';
import type { ScheduleJson } from './render.js';
import { buildScheduleJson } from './rules.js';
import {
  ScheduleAssignment,
  ScheduleKellyDay,
  ScheduleMisc,
  ScheduleQuery,
  ScheduleResponse,
  ScheduleTimeOff,
} from './schemas.js';

/** The parts of a schedule day, each serialized the way the whole response's serializer would write it. */
const parts = {
  assignment: ScheduleAssignment,
  timeOff: Type.Array(ScheduleTimeOff),
  kellyDays: Type.Array(ScheduleKellyDay),
  callbacks: Type.Array(ScheduleCallback),
  trades: Type.Array(ScheduleTrade),
  misc: Type.Array(ScheduleMisc),
  strings: Type.Array(Type.String()),
  envelope: ScheduleResponse,
} satisfies Record<keyof ScheduleJson, TSchema>;

/** The route's serializers (fast-json-stringify, compiled once per schema and kept by Fastify). */
function jsonOf(reply: FastifyReply): ScheduleJson {
  const of = (schema: TSchema) => reply.compileSerializationSchema(schema) as (value: unknown) => string;
  return Object.fromEntries(
    Object.entries(parts).map(([name, schema]) => [name, of(schema)]),
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
      return reply.sendCachedJson(`schedule|${start}|${end}`, () =>
        buildScheduleJson(app.dbHandle, request, request.query, jsonOf(reply), app.engineCache),
      );
    },
  );
};

export default routes;
