import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { withTransaction, type Db } from '../../core/db/transaction.js';
import { linkTo } from '../../core/pagination.js';
import { created, Id, IdParams, ok, SuccessWith, routeOptions } from '../../core/schemas.js';
import { findUsersByIds } from '../users/repository.js';
import { findAnnouncementOrThrow, listAnnouncementPage } from './repository.js';
import { changeAnnouncement, createAnnouncement, deleteAnnouncement } from './rules.js';
import { AnnouncementBody, AnnouncementPage, AnnouncementQuery, AnnouncementResponse } from './schemas.js';
import { serializeAnnouncement } from './serialize.js';

const tags = ['Announcements'];
const route = routeOptions(tags);
const PAGE_SIZE = 50;

const WriteResponse = SuccessWith({
  id: Type.Integer(),
  announcement: AnnouncementResponse,
});
const DeleteResponse = Type.Omit(WriteResponse, ['announcement']);
const DeleteQuery = Type.Object({ admin_id: Type.Optional(Id), user_id: Type.Optional(Id) });

const routes: FastifyPluginAsyncTypebox = async (app) => {
  async function loadAnnouncement(
    db: Db,
    request: Parameters<typeof serializeAnnouncement>[0] & { auth: { orgId: number } },
    id: number,
  ) {
    const row = await findAnnouncementOrThrow(db, request.auth.orgId, id);
    const authors = await findUsersByIds(db, request.auth.orgId, row.user_id === null ? [] : [row.user_id]);
    return serializeAnnouncement(request, row, authors);
  }

  app.get(
    '/announcements',
    route('listAnnouncements', 'Announcements, latest first (non-deleted)', {
      description:
        'Pages by `offset` and `limit` (default 50, at most 200); `pagination.prev`/`next` are links or null.',
      querystring: AnnouncementQuery,
      response: { 200: AnnouncementPage },
    }),
    async (request) => {
      const { orgId } = request.auth;
      const offset = request.query.offset ?? 0;
      const limit = request.query.limit ?? PAGE_SIZE;
      const { rows, more } = await listAnnouncementPage(app.db, orgId, offset, limit);
      const authors = await findUsersByIds(
        app.db,
        orgId,
        rows.flatMap((row) => (row.user_id === null ? [] : [row.user_id])),
      );
      const prev =
        offset > 0 ? linkTo(request, '/announcements', { offset: Math.max(0, offset - limit), limit }) : null;
      const next = more ? linkTo(request, '/announcements', { offset: offset + limit, limit }) : null;
      return { data: rows.map((row) => serializeAnnouncement(request, row, authors)), pagination: { prev, next } };
    },
  );

  app.post(
    '/announcements',
    route('createAnnouncement', 'Posts an announcement', {
      description:
        'The author is `admin_id` (or `user_id`) when given (extension); otherwise the announcement has no user.',
      body: AnnouncementBody,
      response: { 201: WriteResponse },
    }),
    async (request, reply) => {
      const announcement = await withTransaction(app.db, async (trx) => {
        const id = await createAnnouncement(trx, request.auth, request.body);
        return loadAnnouncement(trx, request, id);
      });
      reply.status(201);
      return created('Announcement created successfully.', { id: announcement.id, announcement });
    },
  );

  app.put(
    '/announcements/:id',
    route('updateAnnouncement', 'Replaces the title and body of an announcement', {
      params: IdParams,
      body: AnnouncementBody,
      response: { 200: WriteResponse },
    }),
    async (request) => {
      const announcement = await withTransaction(app.db, async (trx) => {
        await changeAnnouncement(trx, request.auth, request.params.id, request.body);
        return loadAnnouncement(trx, request, request.params.id);
      });
      return ok('Announcement updated successfully.', { id: announcement.id, announcement });
    },
  );

  app.delete(
    '/announcements/:id',
    route('deleteAnnouncement', 'Deletes an announcement (soft)', {
      description: 'The acting user may be named with the `admin_id` (or `user_id`) query parameter (extension).',
      params: IdParams,
      querystring: DeleteQuery,
      response: { 200: DeleteResponse },
    }),
    async (request) => {
      const id = request.params.id;
      await withTransaction(app.db, (trx) => deleteAnnouncement(trx, request.auth, id, request.query));
      return ok('Announcement deleted successfully.', { id });
    },
  );
};

export default routes;
