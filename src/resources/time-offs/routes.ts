import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { timeOffViewer, viewerKey } from '../../core/masked-types.js';
import { Type } from '@sinclair/typebox';
import { withTransaction } from '../../core/db/transaction.js';
import {
  created,
  EXTENSION,
  IdParams,
  ok,
  SuccessBody,
  SuccessWith,
  SuccessWithId,
  routeOptions,
} from '../../core/schemas.js';
import { assertShiftCurrent } from './expected-shift.js';
import { readTimeOffImpact } from './impact.js';
import { leaveInput } from './dates.js';
import { readTimeOff, readTimeOffPage } from './listing.js';
import { approveTimeOff, checkNewTimeOff, createTimeOffWithNotices, deleteTimeOff, denyTimeOff } from './rules.js';
import { OffLimitWarnings, withWarnings } from './limits.js';
import {
  CreateTimeOffBody,
  DecisionBody,
  ListTimeOffsQuery,
  SingleTimeOffResponse,
  TimeOffImpact,
  TimeOffPage,
} from './schemas.js';
import { PENDING } from './table.js';
import { deletedOk } from '../../core/write-handlers.js';

const tags = ['Time off'];
/** The spec's answer, with the off limits the entry goes past (extension, absent when none). */
const SuccessWithWarnings = SuccessWith({ id: Type.Integer(), warnings: OffLimitWarnings });
const route = routeOptions(tags);

const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/time_offs',
    route('listTimeOffs', "Time off overlapping a period, split along each user's rotation (pagination pattern 1)", {
      description:
        'At most one month and `limit` items (default 500, maximum 1000) per page; `metadata.links.next` ' +
        'continues with `after`. Pending and approved entries; `status=2` (extension) lists denied ones.',
      querystring: ListTimeOffsQuery,
      response: { 200: TimeOffPage },
    }),
    async (request, reply) =>
      // kept per viewer: a masked type's name depends on who reads (core/masked-types.ts)
      reply.sendCached(`time_offs|${viewerKey(timeOffViewer(request.auth))}|${JSON.stringify(request.query)}`, () =>
        readTimeOffPage(app.db, request, request.query),
      ),
  );

  app.get(
    '/time_offs/:id',
    route('getTimeOff', 'All occurrences (segments) of one time off entry', {
      params: IdParams,
      response: { 200: SingleTimeOffResponse },
    }),
    async (request) => readTimeOff(app.db, request, request.params.id),
  );

  app.get(
    '/time_offs/:id/impact',
    route('getTimeOffImpact', 'What approving the entry would do to staffing (extension)', {
      ...EXTENSION,
      description:
        'The occurrences whose staffing changes when the entry counts as approved, before and after, ' +
        'judged as GET /vacancies judges them (docs/time-off.md).',
      params: IdParams,
      response: { 200: TimeOffImpact },
    }),
    async (request) => readTimeOffImpact(app.db, request, request.params.id),
  );

  app.post(
    '/time_offs',
    {
      config: {
        // a request the schema refused still hears of its other fields' problems (src/core/errors.ts)
        ruleChecks: async (request, accepted: Partial<CreateTimeOffBody>) => {
          const { admin_ids: ids, start_date: start, end_date: end } = accepted;
          const span = start !== undefined && end !== undefined ? leaveInput(start, end) : undefined;
          await checkNewTimeOff(app.db, request.auth, {
            userId: accepted.user_id,
            adminIds: ids !== undefined ? (Array.isArray(ids) ? ids : [ids]) : undefined,
            start: span?.start,
            end: span?.end,
            typeId: accepted.time_off_type_id,
            rrule: accepted.rrule,
          });
        },
      },
      ...route('createTimeOff', 'Creates time off for a user (pending unless status is 1)', {
        body: CreateTimeOffBody,
        response: { 201: SuccessWithWarnings },
      }),
    },
    async (request, reply) => {
      const body = request.body;
      const { id, warnings } = await withTransaction(app.db, async (trx) => {
        if (body.for_shift) await assertShiftCurrent(trx, request.auth, body.user_id, body.for_shift);
        return createTimeOffWithNotices(trx, request.auth, {
          userId: body.user_id,
          adminIds: Array.isArray(body.admin_ids) ? body.admin_ids : [body.admin_ids],
          ...leaveInput(body.start_date, body.end_date),
          typeId: body.time_off_type_id,
          status: body.status ?? PENDING,
          userNote: body.user_note ?? null,
          rrule: body.rrule ?? null,
          requestedByUser: false,
        });
      });
      reply.status(201);
      return withWarnings(created('Time off created successfully.', { id }), warnings);
    },
  );

  app.delete(
    '/time_offs/:id',
    route('deleteTimeOff', 'Removes a time off entry (hours it took from a bank are given back)', {
      params: IdParams,
      response: { 200: SuccessBody },
    }),
    deletedOk(app.db, deleteTimeOff, 'Time Off removed successfully.'),
  );

  app.post(
    '/time_offs/:id/approve',
    route('approveTimeOff', 'Approves pending time off', {
      description:
        'Optional body `{admin_id}`: the approving admin (default: the first admin the request was ' +
        'addressed to). 422 unless pending, and when an off limit that refuses would be passed ' +
        '(docs/contract-rules.md); `warnings` (extension) names the limits passed otherwise.',
      params: IdParams,
      body: DecisionBody,
      response: { 200: SuccessWithWarnings },
    }),
    async (request) => {
      const warnings = await withTransaction(app.db, (trx) =>
        approveTimeOff(trx, request.auth, request.params.id, request.body?.admin_id),
      );
      return withWarnings({ ...ok('Time off approved successfully.'), id: request.params.id }, warnings);
    },
  );

  app.post(
    '/time_offs/:id/deny',
    route('denyTimeOff', 'Denies pending time off (kept as status 2, hidden from the listings)', {
      description: 'Optional body `{admin_id}`: the denying admin. 422 unless pending.',
      params: IdParams,
      body: DecisionBody,
      response: { 200: SuccessWithId },
    }),
    async (request) => {
      await withTransaction(app.db, (trx) => denyTimeOff(trx, request.auth, request.params.id, request.body?.admin_id));
      return { ...ok('Time off denied successfully.'), id: request.params.id };
    },
  );
};

export default routes;
