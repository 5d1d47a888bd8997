import { existsSync, statSync } from 'node:fs';
import { join, normalize, resolve, sep } from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fastifyStatic from '@fastify/static';
import { unavailable as unavailableError } from '../core/errors.js';

/**
 * Serves the built web app (web/dist) at /app; any other path under /app gets index.html (the
 * app routes on the client). Without a build the server still starts and /app answers 503.
 */
export async function staticRoutes(app: FastifyInstance, { distDir }: { distDir: string }): Promise<void> {
  const root = resolve(distDir);
  const built = existsSync(join(root, 'index.html'));
  const routeOptions = { schema: { hide: true } };
  if (!built) {
    app.log.warn(`web app not built (${root} has no index.html): /app answers 503; run npm run build:web`);
    const unavailable = async (_request: unknown, reply: FastifyReply) =>
      reply.status(503).send(unavailableError('The web app is not built on this server (npm run build:web).').body());
    app.get('/app', routeOptions, unavailable);
    app.get('/app/*', routeOptions, unavailable);
    return;
  }
  await app.register(fastifyStatic, { root, serve: false });

  const headers = (reply: FastifyReply) =>
    reply
      .header(
        'Content-Security-Policy',
        "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'; " +
          "base-uri 'none'; form-action 'self'",
      )
      .header('X-Content-Type-Options', 'nosniff')
      .header('Referrer-Policy', 'same-origin');
  const sendIndex = (reply: FastifyReply) =>
    headers(reply).header('Cache-Control', 'no-cache').sendFile('index.html', { cacheControl: false });

  app.get('/app', routeOptions, async (_request, reply) => sendIndex(reply));
  app.get<{ Params: { '*': string } }>('/app/*', routeOptions, async (request, reply) => {
    const relative = normalize(request.params['*']).replace(/^(\.\.(\/|\\|$))+/, '');
    const file = join(root, relative);
    const isFile = relative !== '' && file.startsWith(root + sep) && existsSync(file) && statSync(file).isFile();
    if (!isFile) return sendIndex(reply);
    const immutable = relative.startsWith(`assets${sep}`);
    return headers(reply).sendFile(relative, { immutable, maxAge: immutable ? '365d' : 0 });
  });
}
