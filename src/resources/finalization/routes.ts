import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { withTransaction } from '../../core/db/transaction.js';
import { routeOptions } from '../../core/schemas.js';
import { processBatch } from './rules.js';
import { BatchBody, BatchResult } from './schemas.js';

const tags = ['Assignments'];
const route = routeOptions(tags);
const description =
  'Each item names an assignment and `dates` and/or `start`..`end` (merged). Future dates are rejected. ' +
  'Mixed results list `success_messages` and `error_messages`; 422 when nothing succeeded; 404 for an ' +
  'unknown `admin_id`.';

const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/finalization',
    route('finalizeAssignments', 'Finalizes assignments on past and current dates, in a batch', {
      description,
      body: BatchBody,
      response: { 200: BatchResult },
    }),
    (request) => withTransaction(app.db, (trx) => processBatch(trx, request.auth, request.body, true)),
  );

  app.delete(
    '/finalization',
    route('unfinalizeAssignments', 'Removes finalizations of assignments, in a batch', {
      description,
      body: BatchBody,
      response: { 200: BatchResult },
    }),
    (request) => withTransaction(app.db, (trx) => processBatch(trx, request.auth, request.body, false)),
  );
};

export default routes;
