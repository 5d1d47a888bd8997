import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import sessionRoutes from './session-routes.js';
import { staticRoutes } from './static-routes.js';

export const DEFAULT_WEB_DIST = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'web', 'dist');

/** The web schedule board (issue 10): sign-in routes and the built app under /app. */
export default async function webappPlugin(app: FastifyInstance, options: { distDir?: string }): Promise<void> {
  await app.register(sessionRoutes);
  await app.register(staticRoutes, { distDir: options.distDir ?? DEFAULT_WEB_DIST });
}
export { enforceMemberAccess } from './access.js';
