import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { EXTENSION, routeOptions } from '../../core/schemas.js';
import { RosterQuery, RosterResponse } from '../users/schemas.js';
import { charsetOf, exportRoster, importRoster, limitRosterImports, ROSTER_COLUMNS, rosterText } from './roster.js';

/*
 * POST /users/import: users created and updated from a roster, with their qualifiers and groups;
 * GET /users/export: the active users as a roster.
 * A folder of its own: the roster writes users and their memberships, which read users.
 */

const route = routeOptions(['Users']);

const routes: FastifyPluginAsyncTypebox = async (app) => {
  // the roster import's body: CSV text (this plugin only)
  app.addContentTypeParser('text/csv', { parseAs: 'buffer' }, (request, body, done) => {
    try {
      done(null, rosterText(body as Buffer, charsetOf(request.headers['content-type'])));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
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
    async (request, reply) => {
      const dryRun = request.query.dry_run ?? false;
      // counted once every row passed its checks: a refused roster uses none of the hourly budget
      return importRoster(app.db, request.auth, request.body, {
        dryRun,
        beforeWrite: () => limitRosterImports(app.db, request.auth.orgId, reply),
      });
    },
  );

  app.get(
    '/users/export',
    route('exportUserRoster', 'The active users as a roster CSV (extension; admins only)', {
      ...EXTENSION,
      description:
        `Columns: ${ROSTER_COLUMNS.filter((c) => c !== 'qualifiers' && c !== 'groups').join(', ')}; ` +
        'the form POST /users/import reads. A cell that begins with =, +, -, @, a tab or a carriage ' +
        "return is written with a leading ' so that a spreadsheet shows it as text.",
      produces: ['text/csv'],
      response: { 200: Type.String({ description: 'the roster as text/csv' }) },
    }),
    async (request, reply) =>
      reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="roster.csv"')
        .send(await exportRoster(app.db, request.auth.orgId)),
  );
};

export default routes;
