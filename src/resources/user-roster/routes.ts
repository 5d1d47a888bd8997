import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { withTransaction } from '../../core/db/transaction.js';
import { EXTENSION, routeOptions } from '../../core/schemas.js';
import { RosterQuery, RosterResponse } from '../users/schemas.js';
import { importRoster, ROSTER_COLUMNS } from './roster.js';

/*
 * POST /users/import: users created and updated from a roster, with their qualifiers and groups.
 * A folder of its own: the roster writes users and their memberships, which read users.
 */

const route = routeOptions(['Users']);

const routes: FastifyPluginAsyncTypebox = async (app) => {
  // the roster import's body: CSV text (this plugin only)
  app.addContentTypeParser('text/csv', { parseAs: 'string' }, (_request, body, done) => done(null, body));
  app.post(
    '/users/import',
    route('importUserRoster', 'Creates and updates users from a roster CSV (extension; admins only)', {
      ...EXTENSION,
      description:
        'A header row, then one user per row, matched by employee_id, else by username, created when ' +
        `neither matches. Columns: ${ROSTER_COLUMNS.join(', ')}; ` +
        'email, phone, qualifiers and groups hold several values separated by ";"; qualifiers and groups ' +
        'by name. An empty cell leaves the field as it is. ' +
        'Every row is checked first: any bad row answers 422 naming its line, and nothing is written. ' +
        '`dry_run=true` reports the changes without writing.',
      consumes: ['text/csv'],
      querystring: RosterQuery,
      body: Type.String({ description: 'the roster as text/csv' }),
      response: { 200: RosterResponse },
    }),
    async (request) => {
      const dryRun = request.query.dry_run ?? false;
      return withTransaction(app.db, (trx) => importRoster(trx, request.auth, request.body, { dryRun }));
    },
  );
};

export default routes;
