import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { Db } from '../../core/db/transaction.js';
import { withTransaction } from '../../core/db/transaction.js';
import { EXTENSION, IdParams, routeOptions } from '../../core/schemas.js';
import { findAssignmentsByIds } from '../assignments/repository.js';
import { findUsersByIds } from '../users/repository.js';
import { FEED_DAYS_AHEAD, FEED_DAYS_BACK } from './calendar.js';
import { findFeedOrThrow, listFeeds } from './repository.js';
import { createFeed, revokeFeed } from './rules.js';
import { CreatedFeedResponse, CreateFeedBody, FeedQuery, FeedResponse } from './schemas.js';
import { feedUrl, serializeFeed, type FeedSubjects } from './serialize.js';
import type { CalendarFeedRow } from './table.js';

const tags = ['Calendar feeds'];
const route = routeOptions(tags);

async function subjectsOf(db: Db, orgId: number, rows: CalendarFeedRow[]): Promise<FeedSubjects> {
  const [users, assignments] = await Promise.all([
    findUsersByIds(
      db,
      orgId,
      rows.flatMap((row) => (row.user_id === null ? [] : [row.user_id])),
    ),
    findAssignmentsByIds(
      db,
      orgId,
      rows.flatMap((row) => (row.assignment_id === null ? [] : [row.assignment_id])),
    ),
  ]);
  return { users, assignments };
}

async function serializeOne(db: Db, request: FastifyRequest, row: CalendarFeedRow) {
  return serializeFeed(request, row, await subjectsOf(db, request.auth.orgId, [row]));
}

const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/calendar_feeds',
    route('createCalendarFeed', 'Creates an iCalendar feed of a user or an assignment (extension)', {
      ...EXTENSION,
      description:
        `The response's \`url\` (\`/feeds/<token>.ics\`, no bearer token needed) is shown only once: ` +
        'crewplan keeps a keyed hash of its token. The feed has the scheduled shifts (as GET /schedule ' +
        `computes them) and approved time off from ${FEED_DAYS_BACK} days before today to ${FEED_DAYS_AHEAD} ` +
        'days after it.',
      body: CreateFeedBody,
      response: { 201: CreatedFeedResponse },
    }),
    async (request, reply) => {
      const { row, token } = await withTransaction(app.db, async (trx) => {
        const { id, token } = await createFeed(trx, request.auth, app.config.secretKey, request.body);
        return { row: await findFeedOrThrow(trx, request.auth.orgId, id), token };
      });
      reply.status(201);
      return { ...(await serializeOne(app.db, request, row)), url: feedUrl(request, token) };
    },
  );

  app.get(
    '/calendar_feeds',
    route('listCalendarFeeds', 'Calendar feeds of the organization, revoked ones included (extension)', {
      ...EXTENSION,
      querystring: FeedQuery,
      response: { 200: Type.Array(FeedResponse) },
    }),
    async (request) => {
      const rows = await listFeeds(app.db, request.auth.orgId, {
        userId: request.query.user_id,
        assignmentId: request.query.assignment_id,
      });
      const subjects = await subjectsOf(app.db, request.auth.orgId, rows);
      return rows.map((row) => serializeFeed(request, row, subjects));
    },
  );

  app.get(
    '/calendar_feeds/:id',
    route('getCalendarFeed', 'One calendar feed (extension)', {
      ...EXTENSION,
      params: IdParams,
      response: { 200: FeedResponse },
    }),
    async (request) =>
      serializeOne(app.db, request, await findFeedOrThrow(app.db, request.auth.orgId, request.params.id)),
  );

  app.delete(
    '/calendar_feeds/:id',
    route('revokeCalendarFeed', 'Revokes a calendar feed: its URL answers 404 from now on (extension)', {
      ...EXTENSION,
      params: IdParams,
      response: { 200: FeedResponse },
    }),
    async (request) => {
      const row = await withTransaction(app.db, (trx) => revokeFeed(trx, request.auth, request.params.id));
      return serializeOne(app.db, request, row);
    },
  );
};

export default routes;
