import type { FastifyRequest } from 'fastify';
import { href } from '../../core/pagination.js';
import { formatIsoOffset } from '../../core/time.js';
import type { AssignmentRow } from '../assignments/table.js';
import { userRef } from '../users/serialize.js';
import type { UserRow } from '../users/table.js';
import type { FeedResponse } from './schemas.js';
import type { CalendarFeedRow } from './table.js';

export interface FeedSubjects {
  users: Map<number, UserRow>;
  assignments: Map<number, AssignmentRow>;
}

export function serializeFeed(request: FastifyRequest, row: CalendarFeedRow, subjects: FeedSubjects): FeedResponse {
  const user = row.user_id === null ? undefined : subjects.users.get(row.user_id);
  const assignment = row.assignment_id === null ? undefined : subjects.assignments.get(row.assignment_id);
  return {
    id: row.id,
    kind: row.user_id !== null ? 'user' : 'assignment',
    user: user ? userRef(request, user) : null,
    assignment: assignment
      ? { id: assignment.id, name: assignment.name, href: href(request, `/assignments/${assignment.id}`) }
      : null,
    name: row.name,
    created_at: formatIsoOffset(row.created_at, request.auth.timezone)!,
    revoked_at: formatIsoOffset(row.revoked_at, request.auth.timezone),
  };
}

/** `https://host/feeds/<token>.ics`: outside /v1, the token is the only credential. */
export function feedUrl(request: Pick<FastifyRequest, 'baseUrl'>, token: string): string {
  return `${request.baseUrl}/feeds/${token}.ics`;
}
