import { deleteOrgRows, sameOrg } from '../db/org-rows.js';
import type { FastifyRequest } from 'fastify';
import { sql, type Generated } from 'kysely';
import { isPostgres } from '../db/schema.js';
import type { Db } from '../db/transaction.js';
import { dataRevisionSql } from '../response-cache.js';
import { nowUtc } from '../time.js';
import { keyedHash, randomSecret } from './secrets.js';

/** Browser sessions of the web app (`/app`): the cookie carries a random id, the table its keyed hash. */
export interface WebSessionTable {
  id: Generated<number>;
  organization_id: number;
  user_id: number;
  token_hash: string;
  created_at: string;
  expires_at: string;
}

declare module '../db/types.js' {
  interface Database {
    web_session: WebSessionTable;
  }
}

export const SESSION_COOKIE = 'crewplan_session';
/** The header a /v1 request made with the session cookie must also carry (CSRF defence beside SameSite). */
export const SESSION_HEADER = 'x-crewplan-session';
export const SESSION_TTL_SECONDS = 12 * 60 * 60;
/** The signed cookie that marks a browser as one its user signed in from (docs/security.md, "Sign-in"). */
export const DEVICE_COOKIE = 'crewplan_device';
export const DEVICE_TTL_SECONDS = 180 * 24 * 60 * 60;

export interface WebCookies {
  session: string;
  device: string;
  secure: boolean;
}

/**
 * The web app's cookie names for a request. Secure cookies (an https request, or always with
 * SESSION_COOKIE_SECURE behind a TLS proxy) carry the `__Host-` prefix (the session: Path=/, no
 * Domain, only over https) or `__Secure-` (the device cookie, whose path is the sign-in route);
 * a request reads only the names of its own kind, so a cookie planted over plain HTTP is ignored.
 */
export function webCookies(request: FastifyRequest, forceSecure: boolean): WebCookies {
  const secure = forceSecure || request.protocol === 'https';
  return secure
    ? { session: `__Host-${SESSION_COOKIE}`, device: `__Secure-${DEVICE_COOKIE}`, secure }
    : { session: SESSION_COOKIE, device: DEVICE_COOKIE, secure };
}

/** Roles (compared case-insensitively) whose users act on the whole organization in the web app. */
const ADMIN_ROLES = new Set(['admin', 'administrator', 'scheduler']);

export function isAdminRole(role: string | null): boolean {
  return ADMIN_ROLES.has((role ?? '').trim().toLowerCase());
}

export interface SessionOwner {
  sessionId: number;
  organizationId: number;
  organizationName: string;
  organizationRevision?: number;
  timezone: string;
  userId: number;
  username: string;
  fullName: string;
  role: string | null;
  isAdmin: boolean;
  expiresAt: string;
}

export async function createSession(
  db: Db,
  key: Buffer,
  organizationId: number,
  userId: number,
): Promise<{ id: number; token: string; expiresAt: string }> {
  // the user's expired sessions go when a new one starts, so the table does not grow without bound
  await deleteOrgRows(db, 'web_session', organizationId)
    .where('user_id', '=', userId)
    .where('expires_at', '<=', new Date().toISOString())
    .execute();
  const token = randomSecret('cpw_');
  const expiresAt = new Date(Date.now() + SESSION_TTL_SECONDS * 1000).toISOString();
  const { id } = await db
    .insertInto('web_session')
    .values({
      organization_id: organizationId,
      user_id: userId,
      token_hash: keyedHash(key, token),
      created_at: nowUtc(),
      expires_at: expiresAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id, token, expiresAt };
}

/** The live session of a cookie value with its (still active) user, or undefined. */
export async function findSession(db: Db, key: Buffer, token: string): Promise<SessionOwner | undefined> {
  if (token.length > 128) return undefined;
  const row = await db
    .selectFrom('web_session as s')
    .innerJoin('user_account as u', sameOrg('u.id', 's.user_id'))
    .innerJoin('organization as o', 'o.id', 's.organization_id')
    .select([
      's.id',
      's.organization_id',
      's.expires_at',
      'o.name as organization_name',
      sql<number>`${sql.raw(dataRevisionSql(isPostgres(db) ? 'postgres' : 'sqlite'))}`.as('revision'),
      'o.timezone',
      'u.id as user_id',
      'u.username',
      'u.first_name',
      'u.last_name',
      'u.role',
    ])
    .where('s.token_hash', '=', keyedHash(key, token))
    .where('s.expires_at', '>', new Date().toISOString())
    .where('u.deleted_at', 'is', null)
    .where('u.active', '=', 1)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    sessionId: row.id,
    organizationId: row.organization_id,
    organizationName: row.organization_name,
    organizationRevision: row.revision,
    timezone: row.timezone,
    userId: row.user_id,
    username: row.username,
    fullName: `${row.first_name} ${row.last_name}`.trim(),
    role: row.role,
    isAdmin: isAdminRole(row.role),
    expiresAt: row.expires_at,
  };
}

export async function deleteSession(db: Db, organizationId: number, sessionId: number): Promise<void> {
  await deleteOrgRows(db, 'web_session', organizationId).where('id', '=', sessionId).execute();
}

/** Signs a user out everywhere: their password changed, so a session opened with the old one must not outlive it. */
export async function endUserSessions(db: Db, organizationId: number, userId: number): Promise<void> {
  await deleteOrgRows(db, 'web_session', organizationId).where('user_id', '=', userId).execute();
}
