import type { FastifyRequest } from 'fastify';
import { href } from '../../core/pagination.js';
import { formatIsoOffset } from '../../core/time.js';
import type { UserRow } from '../users/table.js';
import { userRef } from '../users/serialize.js';
import { signupStatus } from './rules.js';
import type { SignupEventDetailResponse, SignupEventResponse } from './schemas.js';
import type { SignupEventRow, SignupEventUserRow } from './table.js';

export function serializeSignupEvent(event: SignupEventRow, timeZone: string, nowLocal: string): SignupEventResponse {
  return {
    id: event.id,
    work_type_id: event.work_type_id,
    work_subtype_id: event.work_subtype_id,
    title: event.title,
    start: event.start,
    end: event.end,
    // an event created without a description has none: an empty field is null (spec conventions)
    description: event.description === '' ? null : event.description,
    created_by: event.created_by,
    created_at: formatIsoOffset(event.created_at, timeZone)!,
    modified_by: event.modified_by,
    modified_at: formatIsoOffset(event.modified_at, timeZone)!,
    employees_needed: event.employees_needed,
    status: signupStatus(event, nowLocal),
  };
}

/** The single-record form adds deleted_by and deleted_at (null while not deleted). */
export function serializeSignupEventDetail(
  event: SignupEventRow,
  timeZone: string,
  nowLocal: string,
): SignupEventDetailResponse {
  const { employees_needed, status, ...head } = serializeSignupEvent(event, timeZone, nowLocal);
  return {
    ...head,
    deleted_by: event.deleted_by,
    deleted_at: formatIsoOffset(event.deleted_at, timeZone),
    employees_needed,
    status,
  };
}

export function serializeEventUser(
  request: Pick<FastifyRequest, 'baseUrl'>,
  signup: SignupEventUserRow,
  user: UserRow | undefined,
) {
  const ref = user
    ? userRef(request, user)
    : { id: signup.user_id, name: `User #${signup.user_id}`, href: href(request, `/users/${signup.user_id}`) };
  return { id: signup.id, user: ref, misc_hour_id: signup.misc_hour_id };
}
