import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { withTransaction } from '../../core/db/transaction.js';
import { errorResponses } from '../../core/schemas.js';
import { processBatch } from './rules.js';
import { BatchBody, BatchResult } from './schemas.js';

const tags = ['Assignments'];
const description =
  'Each item names an assignment and `dates` and/or `start`..`end` (merged). Future dates are rejected. ' +
  'Mixed results list `success_messages` and `error_messages`; 422 when nothing succeeded; 404 for an ' +
  'unknown `admin_id`.';

const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/finalization',
    {
      schema: {
        operationId: 'finalizeAssignments',
        summary: 'Finalizes assignments on past and current dates, in a batch',
        description,
        tags,
        body: BatchBody,
        response: { 200: BatchResult, ...errorResponses },
      },
    },
    (request) => withTransaction(app.db, (trx) => processBatch(trx, request.auth, request.body, true)),
  );

  app.delete(
    '/finalization',
    {
      schema: {
        operationId: 'unfinalizeAssignments',
        summary: 'Removes finalizations of assignments, in a batch',
        description,
        tags,
        body: BatchBody,
        response: { 200: BatchResult, ...errorResponses },
      },
    },
    (request) => withTransaction(app.db, (trx) => processBatch(trx, request.auth, request.body, false)),
  );
};

export default routes;
