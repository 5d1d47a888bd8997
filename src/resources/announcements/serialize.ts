import type { FastifyRequest } from 'fastify';
import { userRef } from '../users/serialize.js';
import type { UserRow } from '../users/table.js';
import type { AnnouncementResponse } from './schemas.js';
import type { AnnouncementRow } from './table.js';

export function serializeAnnouncement(
  request: Pick<FastifyRequest, 'baseUrl'>,
  row: AnnouncementRow,
  authors: Map<number, UserRow>,
): AnnouncementResponse {
  const author = row.user_id === null ? undefined : authors.get(row.user_id);
  return {
    id: row.id,
    company_id: row.organization_id,
    title: row.title,
    body: row.body,
    first_name: author?.first_name ?? null,
    last_name: author?.last_name ?? null,
    user: author ? userRef(request, author) : null,
  };
}
