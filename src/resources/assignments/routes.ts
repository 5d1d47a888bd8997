import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { writeLog } from '../../core/audit.js';
import { withTransaction } from '../../core/db/transaction.js';
import { invalidParams, notFound } from '../../core/errors.js';
import {
  EXTENSION,
  created,
  IdParams,
  ok,
  SuccessBody,
  SuccessOnly,
  succeeded,
  SuccessWithId,
  routeOptions,
} from '../../core/schemas.js';
import { nowUtc } from '../../core/time.js';
import { findGroupLabel, insertGroupLabel, listGroupLabels, softDeleteGroupLabel } from './repository.js';
import {
  adminsOfAssignment,
  changeAssignment,
  checkAssignmentFields,
  createAssignment,
  currentAssignments,
  deleteAssignment,
  finalizeAssignment,
  groupLabelsOfAssignment,
  loadAssignment,
  removeAssignmentGroupLabels,
  setAdmins,
  setGroupLabels,
  unfinalizeAssignment,
} from './rules.js';
import {
  AdminResponse,
  adminIdsInBody,
  AdminsBody,
  AssignmentGroupParams,
  AssignmentResponse,
  AssignmentWriteResponse,
  CreateAssignmentBody,
  FinalizationBody,
  GroupLabelBody,
  GroupLabelResponse,
  IdsBody,
  idsInBody,
  UnfinalizationBody,
  UpdateAssignmentBody,
} from './schemas.js';
import { serializeGroupLabel } from './serialize.js';
import { deletedOk } from '../../core/write-handlers.js';

const tags = ['Assignments'];
const route = routeOptions(tags);

const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/assignments',
    route('listAssignments', 'Assignments that are not archived (until date not past; a non-recurring one not ended)', {
      response: { 200: Type.Array(AssignmentResponse) },
    }),
    (request) => currentAssignments(app.db, request.auth),
  );

  app.get(
    '/assignments/:id',
    route('getAssignment', 'One assignment (its `date` shown as a datetime)', {
      params: IdParams,
      response: { 200: AssignmentResponse },
    }),
    (request) => loadAssignment(app.db, request.auth.orgId, request.params.id),
  );

  app.post(
    '/assignments',
    {
      config: { ruleChecks: (request, accepted) => checkAssignmentFields(app.db, request.auth.orgId, accepted) },
      ...route('createAssignment', 'Creates an assignment', {
        description:
          'Answers 201 with the success envelope and the created assignment as GET /assignments/{id} shows ' +
          'it. Extension fields: `rrule` (RFC 5545, default `FREQ=DAILY`, null = does not recur), `until` ' +
          '(date), `notes`, `qualifiers_needed` [{id, minimum_staffing}], `admin_id` (creator).',
        body: CreateAssignmentBody,
        response: { 201: AssignmentWriteResponse },
      }),
    },
    async (request, reply) => {
      const assignment = await withTransaction(app.db, async (trx) => {
        const id = await createAssignment(trx, request.auth, request.body);
        return loadAssignment(trx, request.auth.orgId, id);
      });
      reply.status(201);
      return created('Assignment created successfully.', assignment);
    },
  );

  app.patch(
    '/assignments/:id',
    {
      config: { ruleChecks: (request, accepted) => checkAssignmentFields(app.db, request.auth.orgId, accepted) },
      ...route('updateAssignment', 'Changes any subset of an assignment', {
        description: 'Answers 200 with the success envelope and the assignment as GET /assignments/{id} shows it.',
        params: IdParams,
        body: UpdateAssignmentBody,
        response: { 200: AssignmentWriteResponse },
      }),
    },
    async (request) => {
      const assignment = await withTransaction(app.db, async (trx) => {
        await changeAssignment(trx, request.auth, request.params.id, request.body);
        return loadAssignment(trx, request.auth.orgId, request.params.id);
      });
      return ok('Assignment updated successfully.', assignment);
    },
  );

  app.delete(
    '/assignments/:id',
    route('deleteAssignment', 'Deletes an assignment (soft: it leaves every listing and the schedule)', {
      params: IdParams,
      response: { 200: SuccessWithId },
    }),
    async (request) => {
      await withTransaction(app.db, (trx) => deleteAssignment(trx, request.auth, request.params.id));
      return { ...ok('Assignment deleted successfully.'), id: request.params.id };
    },
  );

  app.get(
    '/assignments/:id/groups',
    route('listAssignmentGroups', 'Group labels of an assignment', {
      params: IdParams,
      response: { 200: Type.Array(GroupLabelResponse) },
    }),
    (request) => groupLabelsOfAssignment(app.db, request.auth.orgId, request.params.id),
  );

  app.put(
    '/assignments/:id/groups',
    route('replaceAssignmentGroups', 'Replaces the group labels of an assignment', {
      description:
        'Body `{ids: [group label id, …]}` (also `group_ids`, or `groups` of ids or {id}) or the bare ' +
        'array (labels from POST /assignment_groups). Answers with the new list.',
      params: IdParams,
      body: IdsBody,
      response: { 200: Type.Array(GroupLabelResponse) },
    }),
    async (request) =>
      withTransaction(app.db, async (trx) => {
        const ids = idsInBody(request.body);
        if (!ids) throw invalidParams('The ids field is required.');
        await setGroupLabels(trx, request.auth, request.params.id, ids);
        return groupLabelsOfAssignment(trx, request.auth.orgId, request.params.id);
      }),
  );

  app.delete(
    '/assignments/:id/groups',
    route('removeAssignmentGroups', 'Removes every group label of an assignment', {
      params: IdParams,
      response: { 200: SuccessBody },
    }),
    deletedOk(app.db, removeAssignmentGroupLabels, 'Group labels removed successfully.'),
  );

  app.delete(
    '/assignments/:id/groups/:group_id',
    route('removeAssignmentGroup', 'Removes one group label of an assignment', {
      params: AssignmentGroupParams,
      response: { 200: SuccessBody },
    }),
    async (request) => {
      const { id, group_id } = request.params;
      await withTransaction(app.db, (trx) => removeAssignmentGroupLabels(trx, request.auth, id, group_id));
      return ok('Group label removed successfully.');
    },
  );

  app.get(
    '/assignments/:id/admins',
    route('listAssignmentAdmins', 'Admins of an assignment (who created it)', {
      params: IdParams,
      response: { 200: Type.Array(AdminResponse) },
    }),
    (request) => adminsOfAssignment(app.db, request, request.params.id),
  );

  app.put(
    '/assignments/:id/admins',
    route('replaceAssignmentAdmins', 'Replaces the admins of an assignment', {
      description:
        'Body `{ids: [user id, …]}` (also `admin_ids`), the bare array, or `{admin_id}`; the first becomes ' +
        'the creator. Answers with the new list.',
      params: IdParams,
      body: AdminsBody,
      response: { 200: Type.Array(AdminResponse) },
    }),
    async (request) =>
      withTransaction(app.db, async (trx) => {
        const ids = adminIdsInBody(request.body);
        if (!ids) throw invalidParams('The ids field is required.');
        await setAdmins(trx, request.auth, request.params.id, ids);
        return adminsOfAssignment(trx, request, request.params.id);
      }),
  );

  app.post(
    '/assignments/:id/finalization',
    route('finalizeAssignment', 'Finalizes an assignment on a past or current date (JSON or form fields)', {
      params: IdParams,
      body: FinalizationBody,
      response: { 200: SuccessOnly },
    }),
    async (request) => {
      const { date, admin_id } = request.body;
      await withTransaction(app.db, (trx) => finalizeAssignment(trx, request.auth, request.params.id, date, admin_id));
      return succeeded();
    },
  );

  app.delete(
    '/assignments/:id/finalization',
    {
      ...route('unfinalizeAssignment', 'Removes the finalization of an assignment on a date', {
        description: '`date` (required) and optional `admin_id` in the body (JSON or form fields) or the query string.',
        params: IdParams,
        querystring: UnfinalizationBody,
        body: UnfinalizationBody,
        response: { 200: SuccessOnly },
      }),
      // A DELETE usually comes without a body: validate it as an empty one.
      preValidation: async (request) => {
        request.body ??= {};
      },
    },
    async (request) => {
      const date = request.body.date ?? request.query.date;
      const adminId = request.body.admin_id ?? request.query.admin_id;
      await withTransaction(app.db, (trx) => unfinalizeAssignment(trx, request.auth, request.params.id, date, adminId));
      return succeeded();
    },
  );

  app.get(
    '/assignment_groups',
    route('listAssignmentGroupLabels', 'The catalog of assignment group labels (extension)', {
      ...EXTENSION,
      response: { 200: Type.Array(GroupLabelResponse) },
    }),
    async (request) => (await listGroupLabels(app.db, request.auth.orgId)).map(serializeGroupLabel),
  );

  app.post(
    '/assignment_groups',
    route('createAssignmentGroupLabel', 'Adds an assignment group label to the catalog (extension)', {
      ...EXTENSION,
      body: GroupLabelBody,
      response: { 201: GroupLabelResponse },
    }),
    async (request, reply) => {
      const { name, color } = request.body;
      const id = await withTransaction(app.db, async (trx) => {
        const groupId = await insertGroupLabel(trx, request.auth.orgId, name, color);
        await writeLog(trx, request.auth, {
          action: 'assignment_group.created',
          description: `created assignment group label ${name}.`,
          entityType: 'assignment_group',
          entityId: groupId,
          after: { name, color },
        });
        return groupId;
      });
      reply.status(201);
      return { id: String(id), name, color };
    },
  );

  app.delete(
    '/assignment_groups/:id',
    route(
      'deleteAssignmentGroupLabel',
      'Deletes an assignment group label and takes it off every assignment (extension)',
      { ...EXTENSION, params: IdParams, response: { 200: SuccessBody } },
    ),
    async (request) => {
      await withTransaction(app.db, async (trx) => {
        const group = await findGroupLabel(trx, request.auth.orgId, request.params.id);
        if (!group) throw notFound('AssignmentGroup');
        await softDeleteGroupLabel(trx, request.auth.orgId, group.id, nowUtc());
        await writeLog(trx, request.auth, {
          action: 'assignment_group.deleted',
          description: `deleted assignment group label ${group.name}.`,
          entityType: 'assignment_group',
          entityId: group.id,
          before: group,
        });
      });
      return ok('Group label deleted successfully.');
    },
  );
};

export default routes;
