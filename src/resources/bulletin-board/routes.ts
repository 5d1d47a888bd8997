import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { withTransaction, type Db } from '../../core/db/transaction.js';
import { EXTENSION, ok, SuccessBody, routeOptions } from '../../core/schemas.js';
import { formatIsoOffset, nowUtc } from '../../core/time.js';
import { findUsersByIds } from '../users/repository.js';
import { userRef } from '../users/serialize.js';
import { findBoardLock, findBulletinBoard } from './repository.js';
import { acquireBoardLock, releaseBoardLock, writeBulletinBoard } from './rules.js';
import {
  BulletinBoardResponse,
  LockBody,
  LockResponse,
  LockStatusResponse,
  PutBulletinBoardBody,
  PutBulletinBoardResponse,
  ReleaseQuery,
} from './schemas.js';

const tags = ['Bulletin board'];
const route = routeOptions(tags);

type RequestLike = { baseUrl: string; auth: { orgId: number; timezone: string } };

async function loadBoard(db: Db, request: RequestLike): Promise<BulletinBoardResponse> {
  const board = await findBulletinBoard(db, request.auth.orgId);
  if (!board) return { content: null, last_updated_by: null, last_updated_at: null };
  const author = (await findUsersByIds(db, request.auth.orgId, [board.last_updated_by])).get(board.last_updated_by);
  return {
    content: board.content,
    last_updated_by: author ? userRef(request, author) : null,
    last_updated_at: formatIsoOffset(board.last_updated_at, request.auth.timezone),
  };
}

const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/bulletin_board',
    route('getBulletinBoard', 'The bulletin board', {
      description: 'Before the first write every field is null.',
      response: { 200: BulletinBoardResponse },
    }),
    async (request) => loadBoard(app.db, request),
  );

  app.put(
    '/bulletin_board',
    route('putBulletinBoard', 'Replaces the bulletin board', {
      description:
        'Answers 409 while another admin holds the editing lease (POST /bulletin_board/lock); the holder ' +
        'writes by naming its `admin_id` or `lock_id`. After a 409, re-read the board, reapply the change ' +
        'and retry.',
      body: PutBulletinBoardBody,
      response: { 200: PutBulletinBoardResponse },
    }),
    async (request) => {
      const board = await withTransaction(app.db, async (trx) => {
        await writeBulletinBoard(trx, request.auth, request.body);
        return loadBoard(trx, request);
      });
      return { ...ok('Bulletin board updated successfully.'), bulletin_board: board };
    },
  );

  app.get(
    '/bulletin_board/lock',
    route(
      'getBulletinBoardLock',
      'Whether the bulletin board is open for editing, by whom and until when (extension)',
      { ...EXTENSION, response: { 200: LockStatusResponse } },
    ),
    async (request) => {
      const lock = await findBoardLock(app.db, request.auth.orgId);
      if (!lock || lock.expires_at <= nowUtc()) return { locked: false, admin: null, expires_at: null };
      const admin = (await findUsersByIds(app.db, request.auth.orgId, [lock.admin_id])).get(lock.admin_id);
      return {
        locked: true,
        admin: admin ? userRef(request, admin) : null,
        expires_at: formatIsoOffset(lock.expires_at, request.auth.timezone),
      };
    },
  );

  app.post(
    '/bulletin_board/lock',
    route('lockBulletinBoard', 'Opens the bulletin board for editing: a lease with an expiry (extension)', {
      ...EXTENSION,
      description: '201 with a new lease; 200 when the same admin renews its lease; 409 while another admin holds one.',
      body: LockBody,
      response: { 200: LockResponse, 201: LockResponse },
    }),
    async (request, reply) => {
      const { lease, admin, renewed } = await withTransaction(app.db, (trx) =>
        acquireBoardLock(trx, request.auth, request.body),
      );
      reply.status(renewed ? 200 : 201);
      return {
        lock_id: lease.lock_id,
        admin: userRef(request, admin),
        expires_at: formatIsoOffset(lease.expires_at, request.auth.timezone)!,
      };
    },
  );

  app.delete(
    '/bulletin_board/lock',
    route('unlockBulletinBoard', 'Closes the bulletin board for editing (extension)', {
      ...EXTENSION,
      description:
        'Name the lease by `lock_id` or its holder by `admin_id`. 404 when no lease is in force; 409 when ' +
        'it is held by another admin.',
      querystring: ReleaseQuery,
      response: { 200: SuccessBody },
    }),
    async (request) => {
      await withTransaction(app.db, (trx) => releaseBoardLock(trx, request.auth, request.query));
      return ok('Bulletin board closed for editing.');
    },
  );
};

export default routes;
