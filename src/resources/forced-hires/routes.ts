import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { withTransaction } from '../../core/db/transaction.js';
import { notFound } from '../../core/errors.js';
import { dataEnvelope, linkTo } from '../../core/pagination.js';
import { EXTENSION, IdParams, routeOptions } from '../../core/schemas.js';
import { contactsOfForcedHires, findForcedHire, listForcedHires } from './repository.js';
import { forceHire } from './rules.js';
import {
  ForcedHirePage,
  ForcedHireResponse,
  ForcedListBody,
  ForcedListResponse,
  ForceHireBody,
  ListForcedHiresQuery,
  PAGE_SIZE,
} from './schemas.js';
import { serializeForcedHire } from './serialize.js';
import { forcedListOf, replaceForcedListSettings } from './settings.js';

const tags = ['Forced hire'];
const route = routeOptions(tags);

/** Forced hire, mandatory overtime (docs/contract-rules.md, "Forced hire"); admins only. */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/groups/:id/forced_list',
    route('getForcedList', "The group's forced list: settings and members in forced order (extension)", {
      ...EXTENSION,
      params: IdParams,
      response: { 200: ForcedListResponse },
    }),
    async (request) => forcedListOf(app.db, request.auth.orgId, request.params.id, request.auth.timezone),
  );

  app.put(
    '/groups/:id/forced_list',
    route('replaceForcedList', "Replaces the group's forced list settings (extension)", {
      ...EXTENSION,
      params: IdParams,
      body: ForcedListBody,
      response: { 200: ForcedListResponse },
    }),
    async (request) =>
      withTransaction(app.db, async (trx) => {
        await replaceForcedListSettings(trx, request.auth, request.params.id, request.body);
        return forcedListOf(trx, request.auth.orgId, request.params.id, request.auth.timezone);
      }),
  );

  app.post(
    '/forced_hires',
    route('forceHire', 'Forces the first eligible member of a forced list into a vacancy (extension)', {
      ...EXTENSION,
      description:
        'The group named (else the one whose forced list covers the assignment) is gone through in forced ' +
        'order; the first member available and outside the buffers gets the shift at once and is told. ' +
        "422 when the vacancy has no open seat or nobody can be forced (with each member's reason).",
      body: ForceHireBody,
      response: { 201: ForcedHireResponse },
    }),
    async (request, reply) => {
      const { body, auth } = request;
      const hire = (await withTransaction(app.db, (trx) =>
        forceHire(trx, auth, { ...body, trigger: 'admin', notes: body.notes ?? null }),
      ))!;
      await app.workers.forcedHires.notifier.tell(auth, hire);
      reply.status(201);
      const contacts = await contactsOfForcedHires(app.db, auth.orgId, [hire.row.id]);
      return serializeForcedHire(hire.row, contacts.get(hire.row.id)!);
    },
  );

  app.get(
    '/forced_hires',
    route('listForcedHires', 'Forced hires, newest first, 50 per page with offset links (extension)', {
      ...EXTENSION,
      querystring: ListForcedHiresQuery,
      response: { 200: ForcedHirePage },
    }),
    async (request) => {
      const q = request.query;
      const offset = q.offset ?? 0;
      const limit = q.limit ?? PAGE_SIZE;
      const rows = await listForcedHires(app.db, request.auth.orgId, {
        groupId: q.group_id,
        assignmentId: q.assignment_id,
        offset,
        limit,
      });
      const link = (at: number) =>
        linkTo(request, '/forced_hires', { group_id: q.group_id, assignment_id: q.assignment_id, limit, offset: at });
      const page = rows.slice(0, limit);
      const contacts = await contactsOfForcedHires(
        app.db,
        request.auth.orgId,
        page.map((r) => r.id),
      );
      return dataEnvelope(
        page.map((row) => serializeForcedHire(row, contacts.get(row.id)!)),
        offset > 0 ? link(Math.max(0, offset - limit)) : null,
        rows.length > limit ? link(offset + limit) : null,
      );
    },
  );

  app.get(
    '/forced_hires/:id',
    route('getForcedHire', 'One forced hire with its order explained (extension)', {
      ...EXTENSION,
      params: IdParams,
      response: { 200: ForcedHireResponse },
    }),
    async (request) => {
      const row = await findForcedHire(app.db, request.auth.orgId, request.params.id);
      if (!row) throw notFound('ForcedHire');
      const contacts = await contactsOfForcedHires(app.db, request.auth.orgId, [row.id]);
      return serializeForcedHire(row, contacts.get(row.id)!);
    },
  );
};

export default routes;
