import type { Readable } from 'node:stream';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { withTransaction } from '../../core/db/transaction.js';
import { invalidParams, notFound, unsupportedMediaType } from '../../core/errors.js';
import { href } from '../../core/pagination.js';
import {
  created,
  errorResponses,
  EXTENSION,
  ok,
  SuccessBody,
  SuccessWithId,
  UserIdParams,
  routeOptions,
} from '../../core/schemas.js';
import { formatIsoOffset } from '../../core/time.js';
import { detectDocumentType } from '../certifications/file-type.js';
import { findUserOrThrow } from '../users/repository.js';
import { listUserCertifications, type UserCertificationView } from './certification-repository.js';
import {
  addUserCertification,
  attachFile,
  changeUserCertification,
  findUserCertificationOrThrow,
  removeUserCertifications,
} from './certification-rules.js';
import {
  AddUserCertificationBody,
  ChangeUserCertificationBody,
  UploadResponse,
  UserCertificationParams,
  UserCertificationResponse,
} from './certification-schemas.js';
import { removeStoredFiles, storeFile, streamStoredFile } from './file-store.js';

const tags = ['Users'];
const route = routeOptions(tags);

/** Raw bodies accepted by the upload for simple clients; the bytes decide the type, not the header. */
const RAW_UPLOAD_TYPES = ['application/pdf', 'image/jpeg', 'application/msword', 'application/octet-stream'];

const EXTENSION_BY_TYPE: Record<string, string> = {
  'application/pdf': 'pdf',
  'image/jpeg': 'jpg',
  'application/msword': 'doc',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
};

function fileHref(request: FastifyRequest, record: UserCertificationView) {
  return href(request, `/users/${record.user_id}/certifications/${record.certification_id}/file`);
}

function serializeRecord(request: FastifyRequest, record: UserCertificationView) {
  return {
    id: record.certification_id,
    name: record.name,
    cert_id: record.cert_id,
    number: record.number,
    issued_on: record.issued_on,
    expires_on: record.expires_on,
    notes: record.notes,
    file: record.file_storage_name
      ? {
          content_type: record.file_content_type!,
          size: Number(record.file_size),
          uploaded_at: formatIsoOffset(record.file_uploaded_at, request.auth.timezone)!,
          href: fileHref(request, record),
        }
      : null,
  };
}

async function readUpload(request: FastifyRequest): Promise<Buffer> {
  if (request.isMultipart()) {
    const part = await request.file();
    if (!part) throw invalidParams(['The file field is required.']);
    return part.toBuffer();
  }
  if (Buffer.isBuffer(request.body)) return request.body;
  if (request.body === undefined || request.body === null) throw invalidParams(['The file field is required.']);
  throw unsupportedMediaType(
    `Send the file as multipart/form-data (field "file") or as a raw body (${RAW_UPLOAD_TYPES.join(', ')}).`,
  );
}

const userCertificationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const uploadLimit = app.config.uploadLimitBytes;
  await app.register(multipart, { limits: { fileSize: uploadLimit, files: 1, fields: 10, parts: 11 } });
  app.addContentTypeParser(RAW_UPLOAD_TYPES, { parseAs: 'buffer', bodyLimit: uploadLimit }, (_request, body, done) =>
    done(null, body),
  );

  app.get(
    '/users/:user_id/certifications',
    route('listUserCertifications', "The user's certifications (records whose certification is not deleted)", {
      params: UserIdParams,
      response: { 200: Type.Array(UserCertificationResponse) },
    }),
    async (request) => {
      await findUserOrThrow(app.db, request.auth.orgId, request.params.user_id);
      const records = await listUserCertifications(app.db, request.auth.orgId, request.params.user_id);
      return records.map((record) => serializeRecord(request, record));
    },
  );

  app.get(
    '/users/:user_id/certifications/:id',
    route('getUserCertification', "One of the user's certifications, by certification id", {
      params: UserCertificationParams,
      response: { 200: UserCertificationResponse },
    }),
    async (request) => {
      const { user_id: userId, id } = request.params;
      await findUserOrThrow(app.db, request.auth.orgId, userId);
      return serializeRecord(request, await findUserCertificationOrThrow(app.db, request.auth.orgId, userId, id));
    },
  );

  app.post(
    '/users/:user_id/certifications',
    route('addUserCertification', 'Records that the user holds a certification (`id` = certification id)', {
      params: UserIdParams,
      body: AddUserCertificationBody,
      response: { 201: SuccessWithId },
    }),
    async (request, reply) => {
      const message = await withTransaction(app.db, (trx) =>
        addUserCertification(trx, request.auth, request.params.user_id, request.body),
      );
      reply.status(201);
      return created(message, { id: request.body.id });
    },
  );

  app.put(
    '/users/:user_id/certifications/:id',
    route('updateUserCertification', "Changes the user's certification record; only the fields sent change", {
      params: UserCertificationParams,
      body: ChangeUserCertificationBody,
      response: { 200: SuccessWithId },
    }),
    async (request) => {
      const { user_id: userId, id } = request.params;
      const message = await withTransaction(app.db, (trx) =>
        changeUserCertification(trx, request.auth, userId, id, request.body),
      );
      return { ...ok(message), id };
    },
  );

  app.delete(
    '/users/:user_id/certifications/:id',
    route('removeUserCertification', 'Removes one certification (and its file) from the user', {
      params: UserCertificationParams,
      response: { 200: SuccessBody },
    }),
    async (request) => {
      const { user_id: userId, id } = request.params;
      const message = await withTransaction(app.db, async (trx) => {
        const removed = await removeUserCertifications(trx, request.auth, userId, id);
        await removeStoredFiles(trx, request.auth.orgId, removed.files);
        return removed.message;
      });
      return ok(message);
    },
  );

  app.delete(
    '/users/:user_id/certifications',
    route('removeAllUserCertifications', "Removes all of the user's certifications (and their files)", {
      params: UserIdParams,
      response: { 200: SuccessBody },
    }),
    async (request) => {
      const message = await withTransaction(app.db, async (trx) => {
        const removed = await removeUserCertifications(trx, request.auth, request.params.user_id);
        await removeStoredFiles(trx, request.auth.orgId, removed.files);
        return removed.message;
      });
      return ok(message);
    },
  );

  app.post(
    '/users/:user_id/certifications/:id/file',
    {
      bodyLimit: uploadLimit,
      ...route(
        'uploadUserCertificationFile',
        'Uploads the document of a certification record (pdf, jpeg, doc or docx, recognised by content)',
        {
          description:
            'multipart/form-data with one file part, or the raw bytes as application/pdf, image/jpeg, ' +
            'application/msword or application/octet-stream. Bytes that are not a PDF, JPEG or Word document: 422. ' +
            'Larger than the upload limit: 413. A new upload replaces the previous file.',
          params: UserCertificationParams,
          response: { 200: UploadResponse, 413: errorResponses[400], 415: errorResponses[400] },
        },
      ),
    },
    async (request) => {
      const { user_id: userId, id } = request.params;
      const data = await readUpload(request);
      const type = detectDocumentType(data);
      if (!type) throw invalidParams(['The file must be a file of type: pdf, jpeg, doc, docx.']);
      // the bytes, the record's reference and the removal of the file it replaces: one transaction
      const name = await withTransaction(app.db, async (trx) => {
        const storageName = await storeFile(trx, request.auth.orgId, data);
        const attached = await attachFile(
          trx,
          request.auth,
          { userId, certificationId: id },
          { storageName, type, size: data.length },
        );
        if (attached.replaced) await removeStoredFiles(trx, request.auth.orgId, [attached.replaced]);
        return attached.name;
      });
      const record = await findUserCertificationOrThrow(app.db, request.auth.orgId, userId, id);
      return {
        ...ok(`Uploaded the file of certification ${name}.`),
        id,
        file: serializeRecord(request, record).file!,
      };
    },
  );

  app.get(
    '/users/:user_id/certifications/:id/file',
    route('downloadUserCertificationFile', 'Downloads the document of a certification record (extension)', {
      ...EXTENSION,
      params: UserCertificationParams,
      produces: Object.keys(EXTENSION_BY_TYPE),
      response: { 200: Type.Unsafe<Readable>({ type: 'string', format: 'binary' }) },
    }),
    async (request, reply) => {
      const { user_id: userId, id } = request.params;
      await findUserOrThrow(app.db, request.auth.orgId, userId);
      const record = await findUserCertificationOrThrow(app.db, request.auth.orgId, userId, id);
      if (!record.file_storage_name || !record.file_content_type) throw notFound('CertificationFile');
      const extension = EXTENSION_BY_TYPE[record.file_content_type] ?? 'bin';
      const data = await streamStoredFile(app.db, request.auth.orgId, record.file_storage_name);
      if (!data) throw notFound('CertificationFile');
      if (record.file_size !== null) reply.header('Content-Length', record.file_size);
      return reply
        .type(record.file_content_type)
        .header('Content-Disposition', `attachment; filename="certification-${id}.${extension}"`)
        .header('X-Content-Type-Options', 'nosniff')
        .send(data);
    },
  );
};

export default userCertificationRoutes;
