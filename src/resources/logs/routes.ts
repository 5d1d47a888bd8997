import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type Static, Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { notADateTime } from '../../core/errors.js';
import { href, linkTo } from '../../core/pagination.js';
import { errorResponses, Id, PageLimit, NullableString } from '../../core/schemas.js';
import { formatIsoOffset, parseInstantInput } from '../../core/time.js';
import { listLogPage } from './repository.js';

const PAGE_SIZE = 50;
const MAX_PAGE_SIZE = 200;

const LogEntry = Type.Object({
  log_id: Type.String(),
  created: Type.String({ description: 'iso_datetime, offset without colon' }),
  event_description: Type.String(),
  user: Type.Object({ id: NullableString(), name: Type.String(), href: NullableString() }),
});
const Links = Type.Object({ prev: NullableString(), next: NullableString() });
const LogPage = Type.Object({
  data: Type.Array(LogEntry),
  pagination: Links,
  prev: NullableString(),
  next: NullableString(),
});

const LogQuery = Type.Object({
  after: Type.Optional(Type.String({ maxLength: 40, description: 'date or date/time: only entries created after it' })),
  limit: Type.Optional(PageLimit(PAGE_SIZE, MAX_PAGE_SIZE)),
  before_id: Type.Optional(Id),
  since_id: Type.Optional(Id),
});

type LogQuery = Static<typeof LogQuery>;

const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/logs',
    {
      schema: {
        operationId: 'listLogs',
        summary: 'The system log, newest first, 50 entries per page',
        description:
          'Keyset pages: `next` carries `before_id`, `prev` carries `since_id`. Entries written by an API ' +
          'client without a named user have `user.id` and `user.href` null.',
        tags: ['Logs'],
        querystring: LogQuery,
        response: { 200: LogPage, ...errorResponses },
      },
    },
    async (request, reply) => {
      const q = request.query;
      const createdAfter = q.after === undefined ? undefined : parseInstantInput(q.after, request.auth.timezone);
      if (q.after !== undefined && !createdAfter) throw notADateTime('after parameter');
      // every entry, whichever process wrote it, moves the data revision the cache checks (src/core/response-cache.ts)
      return reply.sendCached(`logs|${JSON.stringify(q)}`, () => logPage(request, q, createdAfter));
    },
  );

  /** One page of the log, newest first, with its keyset links. */
  async function logPage(request: FastifyRequest, q: LogQuery, createdAfter: string | undefined) {
    const { orgId, timezone } = request.auth;
    const limit = q.limit ?? PAGE_SIZE;
    const { rows, more, beyondKey } = await listLogPage(app.db, {
      orgId,
      createdAfter,
      beforeId: q.before_id,
      sinceId: q.since_id,
      limit,
    });

    const newest = rows[0]?.id;
    const oldest = rows[rows.length - 1]?.id;
    // Pagination links carry `limit` (spec, Limits: "Pagination links carry a `limit` parameter"),
    // the default 50 too.
    const base = { after: q.after, limit };
    const hasOlder = q.since_id !== undefined ? beyondKey : more;
    const hasNewer = q.since_id !== undefined ? more : q.before_id !== undefined && beyondKey;
    const next = hasOlder && oldest !== undefined ? linkTo(request, '/logs', { ...base, before_id: oldest }) : null;
    const prev = hasNewer && newest !== undefined ? linkTo(request, '/logs', { ...base, since_id: newest }) : null;
    const data = rows.map((row) => ({
      log_id: String(row.id),
      created: formatIsoOffset(row.created_at, timezone, false)!,
      event_description: row.description,
      user: {
        id: row.actor_user_id === null ? null : String(row.actor_user_id),
        name: row.actor_name,
        href: row.actor_user_id === null ? null : href(request, `/users/${row.actor_user_id}`),
      },
    }));
    return { data, pagination: { prev, next }, prev, next };
  }
};

export default routes;
