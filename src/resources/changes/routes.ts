import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { notAcceptable } from '../../core/errors.js';
import { EXTENSION, routeOptions } from '../../core/schemas.js';

const route = routeOptions(['Changes']);

/** A comment line this often keeps proxies from closing a quiet stream. */
const HEARTBEAT_MS = 15_000;
/**
 * A stream ends after this long and the client opens another: the session or token is checked
 * again then, so a signed-out session or a revoked token stops hearing within this time.
 */
const MAX_STREAM_MS = 10 * 60_000;

/**
 * GET /v1/changes (extension): server-sent events telling the caller that something of its
 * organization changed (docs/extensions.md). Each `change` event carries only a sequence number;
 * the client reads again what it shows, through the routes that apply what it may see.
 */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/changes',
    route(
      'streamChanges',
      'Server-sent events: a `change` event (no data but its number) within about a second of any change ' +
        "of the caller's organization, by anyone; a `ready` event when the stream opens (extension). " +
        'Needs `Accept: text/event-stream` (406 without it).',
      {
        ...EXTENSION,
        produces: ['text/event-stream'],
        response: { 200: Type.String({ description: 'text/event-stream' }) },
      },
    ),
    async (request, reply) => {
      // a client that does not ask for a stream (a plain GET that waits for the whole body) is told so
      if (!/\btext\/event-stream\b/i.test(request.headers.accept ?? ''))
        throw notAcceptable('GET /v1/changes is a stream of server-sent events: send Accept: text/event-stream.');
      const raw = reply.hijack().raw;
      raw.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      let seq = 0;
      raw.write(`retry: 1000\nevent: ready\ndata: {"seq":0}\n\n`);
      const stopWatching = app.changeFeed.watch(
        request.auth.orgId,
        () => {
          seq += 1;
          raw.write(`event: change\ndata: {"seq":${seq}}\n\n`);
        },
        () => raw.end(),
      );
      const heartbeat = setInterval(() => raw.write(': still here\n\n'), HEARTBEAT_MS);
      const lifetime = setTimeout(() => raw.end(), MAX_STREAM_MS);
      raw.on('close', () => {
        stopWatching();
        clearInterval(heartbeat);
        clearTimeout(lifetime);
      });
    },
  );
};

export default routes;
