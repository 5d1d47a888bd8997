import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { Db } from '../../core/db/transaction.js';
import { withTransaction } from '../../core/db/transaction.js';
import { created, errorResponses, IdParams, ok, SuccessBody, SuccessWithId } from '../../core/schemas.js';
import { findUsersByIds } from '../users/repository.js';
import { userRefOrNull } from '../users/serialize.js';
import { findCertificationOrThrow, listCertifications } from './repository.js';
import { changeCertification, createCertification, deleteCertification } from './rules.js';
import { CertificationResponse, ChangeCertificationBody, CreateCertificationBody } from './schemas.js';
import type { CertificationRow } from './table.js';

const tags = ['Certifications'];

async function serializeCertifications(
  db: Db,
  request: FastifyRequest,
  rows: CertificationRow[],
): Promise<CertificationResponse[]> {
  const creators = await findUsersByIds(
    db,
    request.auth.orgId,
    rows.map((row) => row.created_by),
  );
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    cert_id: row.cert_id,
    created_by: userRefOrNull(request, creators, row.created_by),
  }));
}

const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/certifications',
    {
      schema: {
        operationId: 'listCertifications',
        summary: 'Certifications (non-deleted)',
        tags,
        response: { 200: Type.Array(CertificationResponse), ...errorResponses },
      },
    },
    async (request) => serializeCertifications(app.db, request, await listCertifications(app.db, request.auth.orgId)),
  );

  app.get(
    '/certifications/:id',
    {
      schema: {
        operationId: 'getCertification',
        summary: 'One certification (404 once deleted)',
        tags,
        params: IdParams,
        response: { 200: CertificationResponse, ...errorResponses },
      },
    },
    async (request) => {
      const row = await findCertificationOrThrow(app.db, request.auth.orgId, request.params.id);
      return (await serializeCertifications(app.db, request, [row]))[0];
    },
  );

  app.post(
    '/certifications',
    {
      schema: {
        operationId: 'createCertification',
        summary: 'Creates a certification',
        tags,
        body: CreateCertificationBody,
        response: { 201: SuccessWithId, ...errorResponses },
      },
    },
    async (request, reply) => {
      const id = await withTransaction(app.db, (trx) => createCertification(trx, request.auth, request.body));
      reply.status(201);
      return created(`Added new certification ${request.body.name}.`, { id });
    },
  );

  app.put(
    '/certifications/:id',
    {
      schema: {
        operationId: 'updateCertification',
        summary: 'Changes a certification; only the fields sent change',
        tags,
        params: IdParams,
        body: ChangeCertificationBody,
        response: { 200: SuccessWithId, ...errorResponses },
      },
    },
    async (request) => {
      const name = await withTransaction(app.db, (trx) =>
        changeCertification(trx, request.auth, request.params.id, request.body),
      );
      return { ...ok(`Updated certification ${name}.`), id: request.params.id };
    },
  );

  app.delete(
    '/certifications/:id',
    {
      schema: {
        operationId: 'deleteCertification',
        summary: 'Soft-deletes a certification (400 when already deleted)',
        tags,
        params: IdParams,
        response: { 200: SuccessBody, ...errorResponses },
      },
    },
    async (request) => {
      const name = await withTransaction(app.db, (trx) => deleteCertification(trx, request.auth, request.params.id));
      return ok(`Deleted certification ${name}.`);
    },
  );
};

export default routes;
