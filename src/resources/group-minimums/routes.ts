import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { logAction } from '../../core/audit.js';
import { lockRowOrThrow } from '../../core/db/locks.js';
import { withTransaction } from '../../core/db/transaction.js';
import { notFound } from '../../core/errors.js';
import { EXTENSION, ok, routeOptions, SuccessBody } from '../../core/schemas.js';
import { nowUtc } from '../../core/time.js';
import { groupMinimums } from '../../scheduling/index.js';
import { findActiveQualifiersOrInvalid } from '../qualifiers/repository.js';
import { deleteGroupMinimumRow, upsertGroupMinimum } from './repository.js';
import { GroupMinimumBody, GroupMinimumParams, GroupMinimumResponse } from './schemas.js';

const tags = ['Assignments'];
const route = routeOptions(tags);
const description =
  'Minimum staffing of an assignment group (a station, a battalion): people on duty on its assignments and, ' +
  'of them, holders of each qualifier, beside each assignment’s own minimum (docs/contract-rules.md).';

const routes: FastifyPluginAsyncTypebox = async (app) => {
  const list = async (orgId: number) =>
    (await groupMinimums(app.db, orgId)).map((g) => ({
      assignment_group_id: g.id,
      name: g.name,
      min_on_duty: g.min_on_duty,
      min_qualified: g.min_qualified.map((q) => ({
        qualifier_id: q.qualifier_id,
        shortcode: q.shortcode,
        count: q.count,
      })),
      assignment_ids: g.assignmentIds,
    }));

  app.get(
    '/group_minimums',
    route('listGroupMinimums', 'Minimum staffing of the assignment groups (extension)', {
      ...EXTENSION,
      description,
      response: { 200: Type.Array(GroupMinimumResponse) },
    }),
    async (request) => list(request.auth.orgId),
  );

  app.put(
    '/group_minimums/:group_id',
    route('setGroupMinimum', 'Sets the minimum staffing of an assignment group (extension)', {
      ...EXTENSION,
      description,
      params: GroupMinimumParams,
      body: GroupMinimumBody,
      response: { 200: GroupMinimumResponse },
    }),
    async (request) => {
      const { orgId } = request.auth;
      const groupId = request.params.group_id;
      const body = request.body;
      await withTransaction(app.db, async (trx) => {
        // the group's row held: two first settings of one group never both insert
        const group = await lockRowOrThrow(trx, {
          table: 'assignment_group',
          orgId,
          id: groupId,
          model: 'AssignmentGroup',
          softDeleted: true,
        });
        const needs = body.min_qualified ?? [];
        await findActiveQualifiersOrInvalid(
          trx,
          orgId,
          needs.map((q) => q.qualifier_id),
        );
        const values = { min_on_duty: body.min_on_duty, min_qualified: JSON.stringify(needs) };
        await upsertGroupMinimum(trx, orgId, groupId, values, nowUtc());
        await logAction(trx, request.auth, 'group_minimum.updated', groupId, {
          description: `set the minimum staffing of ${group.name}: ${body.min_on_duty} on duty.`,
          after: values,
        });
      });
      return (await list(orgId)).find((g) => g.assignment_group_id === groupId)!;
    },
  );

  app.delete(
    '/group_minimums/:group_id',
    route('deleteGroupMinimum', 'Removes the minimum staffing of an assignment group (extension)', {
      ...EXTENSION,
      params: GroupMinimumParams,
      response: { 200: SuccessBody },
    }),
    async (request) => {
      await withTransaction(app.db, async (trx) => {
        const removed = await deleteGroupMinimumRow(trx, request.auth.orgId, request.params.group_id);
        if (removed === 0) throw notFound('GroupMinimum');
        await logAction(trx, request.auth, 'group_minimum.deleted', request.params.group_id, {
          description: 'removed the minimum staffing of an assignment group.',
        });
      });
      return ok('Group minimum removed successfully.');
    },
  );
};

export default routes;
