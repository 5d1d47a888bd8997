import type { FastifyRequest } from 'fastify';
import { href } from '../../core/pagination.js';
import type { UserRef, UserRefStrId } from '../../core/schemas.js';
import type { UserResponse } from './schemas.js';
import type { UserRow } from './table.js';

type NameParts = Pick<UserRow, 'id' | 'first_name' | 'last_name'>;
type BaseUrl = Pick<FastifyRequest, 'baseUrl'>;

export function fullName(user: Pick<UserRow, 'first_name' | 'last_name'>): string {
  return `${user.first_name} ${user.last_name}`.trim();
}

/** `{id, name, href}` */
export function userRef(request: BaseUrl, user: NameParts): UserRef {
  return { id: user.id, name: fullName(user), href: href(request, `/users/${user.id}`) };
}

/** `{id, name, href}` with the id as a string, as several responses write it. */
export function userRefStrId(request: BaseUrl, user: NameParts): UserRefStrId {
  return { id: String(user.id), name: fullName(user), href: href(request, `/users/${user.id}`) };
}

/** A user ref, or null when the id is null or names no loaded user. */
export function userRefOrNull(request: BaseUrl, users: Map<number, NameParts>, id: number | null): UserRef | null {
  const user = id === null ? undefined : users.get(id);
  return user ? userRef(request, user) : null;
}

function jsonArray(text: string): string[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.map(String) : [];
  } catch {
    return [];
  }
}

export interface AccrualNames {
  tracks: Map<number, { id: number; name: string }>;
  profiles: Map<number, { id: number; name: string }>;
}

/**
 * A coworker as a member of the web app sees them while the organization shares only the work
 * contact (src/resources/member-view): names, role, avatar, ids and the work e-mail (the first,
 * the address the account was made with); no birth or hire date, no other e-mail, no phone
 * number, no accrual settings.
 */
export function coworkerView(user: UserResponse): UserResponse {
  return {
    ...user,
    date_of_hire: null,
    date_of_birth: null,
    accrual_start_date: null,
    emails: user.emails.slice(0, 1),
    phone_numbers: [],
    accrual_track: null,
    accrual_profile: null,
  };
}

export function serializeUser(user: UserRow, names: AccrualNames): UserResponse {
  const track = user.accrual_track_id === null ? undefined : names.tracks.get(user.accrual_track_id);
  const profile = user.accrual_profile_id === null ? undefined : names.profiles.get(user.accrual_profile_id);
  return {
    user_id: user.id,
    employee_id: user.employee_id,
    username: user.username,
    first_name: user.first_name,
    last_name: user.last_name,
    full_name: fullName(user),
    role: user.role,
    avatar_url: user.avatar_url,
    date_of_hire: user.date_of_hire,
    date_of_birth: user.date_of_birth,
    accrual_start_date: user.accrual_start_date,
    emails: jsonArray(user.emails),
    phone_numbers: jsonArray(user.phone_numbers),
    accrual_track: track ? { id: track.id, name: track.name } : null,
    accrual_profile: profile ? { id: profile.id, name: profile.name } : null,
  };
}
