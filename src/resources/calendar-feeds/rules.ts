import type { AuthContext } from '../../core/auth/context.js';
import { keyedHash, randomSecret } from '../../core/auth/secrets.js';
import { logAction } from '../../core/audit.js';
import type { Db } from '../../core/db/transaction.js';
import { conflict, invalidParams } from '../../core/errors.js';
import { nowUtc } from '../../core/time.js';
import { findAssignment } from '../assignments/repository.js';
import { findUserOrInvalid } from '../users/repository.js';
import { fullName } from '../users/serialize.js';
import { findFeedOrThrow, insertFeed, markRevoked } from './repository.js';
import type { CreateFeedBody } from './schemas.js';
import type { CalendarFeedRow } from './table.js';

/** Prefix of feed tokens, so a leaked one is recognisable. */
const TOKEN_PREFIX = 'cpf_';

/** "the calendar feed of John Doe" / "the calendar feed of assignment Station 1", for the log. */
async function subjectOf(
  trx: Db,
  orgId: number,
  body: Pick<CreateFeedBody, 'user_id' | 'assignment_id'>,
): Promise<string> {
  if ((body.user_id === undefined) === (body.assignment_id === undefined)) {
    throw invalidParams('Exactly one of the user id and assignment id fields is required.');
  }
  if (body.user_id !== undefined) return fullName(await findUserOrInvalid(trx, orgId, body.user_id));
  const assignment = await findAssignment(trx, orgId, body.assignment_id!);
  if (!assignment) throw invalidParams('The selected assignment id is invalid.');
  return `assignment ${assignment.name}`;
}

/** Creates a feed; the token is returned once and only its keyed hash is stored. */
export async function createFeed(
  trx: Db,
  auth: AuthContext,
  secretKey: Buffer,
  body: CreateFeedBody,
): Promise<{ id: number; token: string }> {
  const subject = await subjectOf(trx, auth.orgId, body);
  const token = randomSecret(TOKEN_PREFIX);
  const id = await insertFeed(trx, {
    organization_id: auth.orgId,
    token_hash: keyedHash(secretKey, token),
    user_id: body.user_id ?? null,
    assignment_id: body.assignment_id ?? null,
    name: body.name ?? null,
    created_at: nowUtc(),
    revoked_at: null,
  });
  await logAction(trx, auth, 'calendar_feed.created', id, {
    description: `created a calendar feed of ${subject}.`,
    after: { user_id: body.user_id ?? null, assignment_id: body.assignment_id ?? null, name: body.name ?? null },
  });
  return { id, token };
}

/** Revokes a feed: its URL answers 404 from the next request on. */
export async function revokeFeed(trx: Db, auth: AuthContext, id: number): Promise<CalendarFeedRow> {
  const feed = await findFeedOrThrow(trx, auth.orgId, id);
  if (feed.revoked_at !== null) throw conflict('The calendar feed is already revoked.');
  const revokedAt = nowUtc();
  await markRevoked(trx, auth.orgId, id, revokedAt);
  await logAction(trx, auth, 'calendar_feed.revoked', id, {
    description: `revoked calendar feed ${id}.`,
    before: { revoked_at: null },
    after: { revoked_at: revokedAt },
  });
  return { ...feed, revoked_at: revokedAt };
}
