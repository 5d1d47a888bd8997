import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { withTransaction } from '../../core/db/transaction.js';
import { created, EXTENSION, IdParams, SuccessBody, SuccessWithId, routeOptions } from '../../core/schemas.js';
import { formatIsoOffset, utcToLocal } from '../../core/time.js';
import { findUsersByIds } from '../users/repository.js';
import { userRefStrId } from '../users/serialize.js';
import { findFormOrThrow, listForms, listSubmissions } from './repository.js';
import { createForm, deleteForm, parseFields, submitForm } from './rules.js';
import {
  CreateFormBody,
  FormListResponse,
  FormResponse,
  SubmissionResponse,
  SubmitFormBody,
  type SubmissionAnswer,
} from './schemas.js';
import { createdWithId, deletedOk } from '../../core/write-handlers.js';

const tags = ['Forms'];
const route = routeOptions(tags);

const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/forms',
    route('listForms', 'Forms of the organization, keyed by form id', {
      description: 'Also answers at `/forms/`. `created_at` is a datetime in the organization time zone.',
      response: { 200: FormListResponse },
    }),
    async (request) => {
      const forms = await listForms(app.db, request.auth.orgId);
      return Object.fromEntries(
        forms.map((form) => [
          String(form.id),
          {
            title: form.title,
            created_at: utcToLocal(form.created_at, request.auth.timezone),
            created_by: form.created_by_name,
          },
        ]),
      );
    },
  );

  app.get(
    '/forms/:id/submissions',
    route('listFormSubmissions', 'Submissions of a form, oldest first', {
      params: IdParams,
      response: { 200: Type.Array(SubmissionResponse) },
    }),
    async (request) => {
      const { orgId, timezone } = request.auth;
      await findFormOrThrow(app.db, orgId, request.params.id);
      const submissions = await listSubmissions(app.db, orgId, request.params.id);
      const users = await findUsersByIds(
        app.db,
        orgId,
        submissions.map((s) => s.user_id),
      );
      return submissions.flatMap((submission) => {
        const user = users.get(submission.user_id);
        if (!user) return [];
        return [
          {
            user: userRefStrId(request, user),
            submitted_at: formatIsoOffset(submission.submitted_at, timezone, false)!,
            submission: JSON.parse(submission.answers) as SubmissionAnswer[],
          },
        ];
      });
    },
  );

  app.get(
    '/forms/:id',
    route('getForm', 'A form definition with its fields (extension)', {
      ...EXTENSION,
      params: IdParams,
      response: { 200: FormResponse },
    }),
    async (request) => {
      const form = await findFormOrThrow(app.db, request.auth.orgId, request.params.id);
      return {
        id: form.id,
        title: form.title,
        created_at: utcToLocal(form.created_at, request.auth.timezone),
        created_by: form.created_by_name,
        fields: parseFields(form),
      };
    },
  );

  app.post(
    '/forms',
    route('createForm', 'Defines a form: a title and its fields (extension)', {
      ...EXTENSION,
      body: CreateFormBody,
      response: { 201: SuccessWithId },
    }),
    createdWithId(app.db, createForm, 'Form created successfully.'),
  );

  app.delete(
    '/forms/:id',
    route('deleteForm', 'Deletes a form (soft; its submissions are kept) (extension)', {
      ...EXTENSION,
      params: IdParams,
      response: { 200: SuccessBody },
    }),
    deletedOk(app.db, deleteForm, 'Form deleted successfully.'),
  );

  app.post(
    '/forms/:id/submissions',
    route('submitForm', 'Submits a form on behalf of a user (extension)', {
      ...EXTENSION,
      params: IdParams,
      body: SubmitFormBody,
      response: { 201: SuccessWithId },
    }),
    async (request, reply) => {
      const id = await withTransaction(app.db, (trx) => submitForm(trx, request.auth, request.params.id, request.body));
      reply.status(201);
      return created('Form submitted successfully.', { id });
    },
  );
};

export default routes;
