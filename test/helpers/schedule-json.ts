import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import { ScheduleResponse } from '../../src/resources/schedule/schemas.js';

/**
 * GET /schedule's body as Fastify's serializer (fast-json-stringify) of the route's response schema
 * writes it. The route puts its JSON together from parts encoded when they were computed
 * (src/resources/schedule/rules.ts): its text must equal this one byte for byte.
 */
export const serializedSchedule = SerializerSelector()({}, {})({
  schema: ScheduleResponse,
  method: 'GET',
  url: '/v1/schedule',
  httpStatus: '200',
}) as (body: unknown) => string;
