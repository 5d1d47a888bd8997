import type { FastifyPluginAsync } from 'fastify';
import { Type } from '@sinclair/typebox';
import { keyedHash } from '../../core/auth/secrets.js';
import { notFound } from '../../core/errors.js';
import { renderFeed } from './calendar.js';
import { findActiveFeedByTokenHash } from './repository.js';

const FeedParams = Type.Object({ token: Type.String({ maxLength: 200 }) });

/**
 * GET /feeds/{token}.ics, outside /v1 and its bearer hook (calendar clients cannot send one): the
 * unguessable token is the credential. Unknown and revoked tokens are the same 404. Rate limited
 * per client address like the token endpoint.
 */
const publicFeedRoutes: FastifyPluginAsync = async (app) => {
  app.get<{ Params: { token: string } }>(
    '/feeds/:token',
    { schema: { hide: true, params: FeedParams }, config: { publicRateLimit: 'feeds' } },
    async (request, reply) => {
      const token = request.params.token.replace(/\.ics$/, '');
      const feed = await findActiveFeedByTokenHash(app.db, keyedHash(app.config.secretKey, token));
      if (!feed) throw notFound('CalendarFeed');
      const body = await renderFeed(app.db, feed);
      return reply
        .type('text/calendar; charset=utf-8')
        .header('Content-Disposition', 'inline; filename="crewplan.ics"')
        .header('Cache-Control', 'private, max-age=300')
        .header('Referrer-Policy', 'no-referrer')
        .send(body);
    },
  );
};

export default publicFeedRoutes;
