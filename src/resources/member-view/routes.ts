import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { writeLog } from '../../core/audit.js';
import { withTransaction } from '../../core/db/transaction.js';
import { EXTENSION, ok, routeOptions } from '../../core/schemas.js';
import { findMemberUserView, updateMemberUserView } from './repository.js';
import { ChangeMemberViewBody, MemberViewResponse, MemberViewWriteResponse } from './schemas.js';

const tags = ['Member view'];
const route = routeOptions(tags);

/**
 * What the web app's members (sessions of users who are not admins) see of their coworkers
 * (docs/security.md, "Members' view of users"). Admins and the API credential always see all.
 */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/member_view',
    route('getMemberView', 'What members see of their coworkers in GET /users (extension)', {
      ...EXTENSION,
      response: { 200: MemberViewResponse },
    }),
    async (request) => ({ users: await findMemberUserView(app.db, request.auth.orgId) }),
  );

  app.put(
    '/member_view',
    route('changeMemberView', 'Sets what members see of their coworkers in GET /users (extension)', {
      ...EXTENSION,
      body: ChangeMemberViewBody,
      response: { 200: MemberViewWriteResponse },
    }),
    async (request) => {
      const users = await withTransaction(app.db, async (trx) => {
        const before = await findMemberUserView(trx, request.auth.orgId);
        await updateMemberUserView(trx, request.auth.orgId, request.body.users);
        await writeLog(trx, request.auth, {
          action: 'member_view.updated',
          description: `members now see ${request.body.users === 'all' ? 'every field' : 'the work contact'} of others`,
          entityType: 'organization',
          entityId: request.auth.orgId,
          before: { users: before },
          after: { users: request.body.users },
        });
        return findMemberUserView(trx, request.auth.orgId);
      });
      return { ...ok('Member view updated successfully.'), member_view: { users } };
    },
  );
};

export default routes;
