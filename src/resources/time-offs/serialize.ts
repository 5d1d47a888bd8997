import type { FastifyRequest } from 'fastify';
import { maskableOfRow, timeOffViewer, visibleTimeOffType, type TimeOffViewer } from '../../core/masked-types.js';
import { formatIsoOffset } from '../../core/time.js';
import type { TimeOffTypeRow } from '../time-off-types/table.js';
import { userRef, userRefStrId } from '../users/serialize.js';
import type { UserRow } from '../users/table.js';
import type { ScheduleTimeOff, TimeOffItem, UserTimeOffItem } from './schemas.js';
import type { ApprovedTimeOff, Segment } from '../../scheduling/index.js';
import { href } from '../../core/pagination.js';
import type { TimeOffRow } from './table.js';

type Request = Pick<FastifyRequest, 'baseUrl' | 'auth'>;

export interface Related {
  users: Map<number, UserRow>;
  types: Map<number, TimeOffTypeRow>;
}

/** Ids of the users an entry names: for one batched lookup. */
export const userIdsOf = (entries: TimeOffRow[]) =>
  entries
    .flatMap((entry) => [entry.user_id, entry.admin_id, entry.traded_with])
    .filter((id): id is number => id !== null);

function refOf<T>(users: Map<number, UserRow>, id: number | null, make: (user: UserRow) => T): T | null {
  const user = id === null ? undefined : users.get(id);
  return user ? make(user) : null;
}

/** `{id, name, work_code}` of an entry's type as the request's reader may see it (core/masked-types.ts). */
function typeRef(request: Request, entry: TimeOffRow, type: TimeOffTypeRow) {
  const { id, name, work_code } = visibleTimeOffType(timeOffViewer(request.auth), entry, maskableOfRow(type));
  return { id, name, work_code };
}

function dates(request: Request, entry: TimeOffRow) {
  const tz = request.auth.timezone;
  return {
    request_date: formatIsoOffset(entry.request_date, tz),
    approval_date: formatIsoOffset(entry.approval_date, tz),
    acknowledgement_date: formatIsoOffset(entry.acknowledgement_date, tz),
  };
}

/** One segment of an entry, as GET /time_offs and GET /time_offs/{id} list it. */
export function serializeSegment(request: Request, entry: TimeOffRow, segment: Segment, related: Related): TimeOffItem {
  const type = typeRef(request, entry, related.types.get(entry.time_off_type_id)!);
  const user = related.users.get(entry.user_id)!;
  return {
    id: entry.id,
    time_off_type: type,
    user: userRef(request, user),
    admin: refOf(related.users, entry.admin_id, (admin) => userRef(request, admin)),
    start: segment.start,
    end: segment.end,
    length: segment.length,
    real_length: segment.real_length,
    status: entry.status,
    ...dates(request, entry),
    user_note: entry.user_note,
    traded_with: refOf(related.users, entry.traded_with, (other) => userRef(request, other)),
  };
}

/** An entry as GET /users/{user_id}/time_offs lists it: ids and status as strings, with rrule. */
export function serializeUserTimeOff(request: Request, entry: TimeOffRow, related: Related): UserTimeOffItem {
  const type = typeRef(request, entry, related.types.get(entry.time_off_type_id)!);
  const user = related.users.get(entry.user_id)!;
  return {
    id: String(entry.id),
    time_off_type: { ...type, id: String(type.id) },
    user: userRefStrId(request, user),
    admin: refOf(related.users, entry.admin_id, (admin) => userRefStrId(request, admin)),
    start: entry.start,
    end: entry.end,
    rrule: entry.rrule,
    status: String(entry.status),
    ...dates(request, entry),
    user_note: entry.user_note,
    traded_with: refOf(related.users, entry.traded_with, (other) => userRefStrId(request, other)),
  };
}

/** An approved time off as GET /schedule lists it to the viewer; `ref` names a user. */
export function scheduleTimeOffItem(
  request: FastifyRequest,
  timeOff: ApprovedTimeOff,
  ref: (userId: number) => ScheduleTimeOff['user'],
  viewer: TimeOffViewer,
): ScheduleTimeOff {
  const { id, name, work_code, color, text_color, public_name } = visibleTimeOffType(
    viewer,
    timeOff,
    timeOff.time_off_type,
  );
  return {
    id: timeOff.id,
    href: href(request, `/time_offs/${timeOff.id}`),
    start: timeOff.start,
    end: timeOff.written_end,
    user: ref(timeOff.user_id),
    admin: timeOff.admin_id === null ? null : ref(timeOff.admin_id),
    time_off_type: {
      id,
      href: href(request, `/time_off_types/${id}`),
      name,
      work_code,
      color,
      text_color,
      subtypes: [],
      ...(public_name === undefined ? {} : { public_name }),
    },
  };
}
