import { randomUUID } from 'node:crypto';
import type { AuthContext } from '../../core/auth/context.js';
import { writeLog } from '../../core/audit.js';
import type { Db } from '../../core/db/transaction.js';
import { conflict, notFound } from '../../core/errors.js';
import { sanitize } from '../../core/html.js';
import { formatIsoOffset, nowUtc, Temporal } from '../../core/time.js';
import { findUserOrInvalid, findUsersByIds } from '../users/repository.js';
import { fullName } from '../users/serialize.js';
import { deleteBoardLock, findBoardLock, saveBoardLock, saveBulletinBoard } from './repository.js';
import { DEFAULT_LEASE_SECONDS, type LockBody, type PutBulletinBoardBody, type ReleaseQuery } from './schemas.js';
import type { BulletinBoardLockRow } from './table.js';

const isActive = (lock: BulletinBoardLockRow | undefined, now: string): lock is BulletinBoardLockRow =>
  lock !== undefined && lock.expires_at > now;

const isHolder = (lock: BulletinBoardLockRow, who: { adminId?: number; lockId?: string }) =>
  (who.lockId !== undefined && who.lockId === lock.lock_id) ||
  (who.adminId !== undefined && who.adminId === lock.admin_id);

async function openForEditing(db: Db, auth: AuthContext, lock: BulletinBoardLockRow) {
  const holder = (await findUsersByIds(db, auth.orgId, [lock.admin_id])).get(lock.admin_id);
  const name = holder ? fullName(holder) : `user #${lock.admin_id}`;
  return conflict(
    `The bulletin board is open for editing by ${name} until ${formatIsoOffset(lock.expires_at, auth.timezone)}.`,
  );
}

/** Replaces the board; 409 while another admin holds an unexpired editing lease. */
export async function writeBulletinBoard(trx: Db, auth: AuthContext, body: PutBulletinBoardBody): Promise<void> {
  const admin = await findUserOrInvalid(trx, auth.orgId, body.admin_id, 'admin id');
  const now = nowUtc();
  const lock = await findBoardLock(trx, auth.orgId, { lock: true });
  if (isActive(lock, now) && !isHolder(lock, { adminId: admin.id, lockId: body.lock_id }))
    throw await openForEditing(trx, auth, lock);
  const content = sanitize(body.content);
  await saveBulletinBoard(trx, auth.orgId, { content, last_updated_by: admin.id, last_updated_at: now });
  await writeLog(trx, auth, {
    action: 'bulletin_board.updated',
    description: 'updated the bulletin board.',
    actorUserId: admin.id,
    entityType: 'bulletin_board',
    after: { content },
  });
}

/** Opens the board for editing (or renews the caller's own lease). */
export async function acquireBoardLock(trx: Db, auth: AuthContext, body: LockBody) {
  const admin = await findUserOrInvalid(trx, auth.orgId, body.admin_id, 'admin id');
  const now = nowUtc();
  const current = await findBoardLock(trx, auth.orgId, { lock: true });
  if (isActive(current, now) && current.admin_id !== admin.id) throw await openForEditing(trx, auth, current);
  const renewed = isActive(current, now);
  const lease = {
    lock_id: renewed ? current!.lock_id : randomUUID(),
    admin_id: admin.id,
    expires_at: Temporal.Instant.from(now)
      .add({ seconds: body.ttl_seconds ?? DEFAULT_LEASE_SECONDS })
      .toString({ fractionalSecondDigits: 3 }),
    created_at: now,
  };
  await saveBoardLock(trx, auth.orgId, lease);
  await writeLog(trx, auth, {
    action: renewed ? 'bulletin_board.lock_renewed' : 'bulletin_board.locked',
    description: `opened the bulletin board for editing until ${formatIsoOffset(lease.expires_at, auth.timezone)}.`,
    actorUserId: admin.id,
    entityType: 'bulletin_board',
  });
  return { lease, admin, renewed };
}

/** Ends the caller's lease; 404 when no lease is in force, 409 when it is someone else's. */
export async function releaseBoardLock(trx: Db, auth: AuthContext, query: ReleaseQuery): Promise<void> {
  const current = await findBoardLock(trx, auth.orgId, { lock: true });
  if (!isActive(current, nowUtc())) throw notFound('BulletinBoardLock');
  if (!isHolder(current, { adminId: query.admin_id, lockId: query.lock_id }))
    throw await openForEditing(trx, auth, current);
  await deleteBoardLock(trx, auth.orgId);
  await writeLog(trx, auth, {
    action: 'bulletin_board.released',
    description: 'closed the bulletin board for editing.',
    actorUserId: current.admin_id,
    entityType: 'bulletin_board',
  });
}
