import type { ExpressionBuilder, Insertable, Updateable } from 'kysely';
import { orgRows, updateOrgRow } from '../../core/db/org-rows.js';
import type { Db } from '../../core/db/transaction.js';
import { lockRowOrThrow } from '../../core/db/locks.js';
import type { Database } from '../../core/db/types.js';
import { orNotFound } from '../../core/errors.js';
import type { OpenStatus } from './schemas.js';
import type { SignupEventRow, SignupEventTable, SignupEventUserRow } from './table.js';

type EventEb = ExpressionBuilder<Database, 'signup_event'>;

export function findSignupEvent(db: Db, orgId: number, id: number): Promise<SignupEventRow | undefined> {
  return orgRows(db, 'signup_event', orgId).where('id', '=', id).executeTakeFirst();
}

/** Deleted events are found too: they stay readable by id. */
export async function findSignupEventOrThrow(db: Db, orgId: number, id: number): Promise<SignupEventRow> {
  return orNotFound(findSignupEvent(db, orgId, id), 'SignupEvent');
}

/** Reads the event and holds its row lock until the transaction ends: sign-ups of one event queue here. */
export function lockSignupEventOrThrow(trx: Db, orgId: number, id: number): Promise<SignupEventRow> {
  return lockRowOrThrow(trx, { table: 'signup_event', orgId, id, model: 'SignupEvent' });
}

/** The SQL form of the computed status (see rules.ts `signupStatus`), for the list filters. */
function statusIs(eb: EventEb, status: OpenStatus, now: string) {
  const short = eb('signed_up_count', '<', eb.ref('employees_needed'));
  const started = eb('start', '<=', now);
  switch (status) {
    case 'filled':
      return eb('signed_up_count', '>=', eb.ref('employees_needed'));
    case 'active':
      return eb.and([short, eb('start', '>', now)]);
    case 'partially_filled':
      return eb.and([short, started, eb('signed_up_count', '>', 0)]);
    case 'not_filled':
      return eb.and([short, started, eb('signed_up_count', '=', 0)]);
  }
}

export interface SignupEventFilter {
  deleted: boolean;
  archived: boolean;
  status?: OpenStatus;
  start?: string;
  end?: string;
  now: string;
}

export async function listSignupEvents(db: Db, orgId: number, filter: SignupEventFilter): Promise<SignupEventRow[]> {
  // status, archived, start and end each keep non-deleted events only: with deleted, nothing is left
  const nonDeletedOnly =
    filter.archived || filter.status !== undefined || filter.start !== undefined || filter.end !== undefined;
  if (filter.deleted && nonDeletedOnly) return [];
  return orgRows(db, 'signup_event', orgId)
    .where('deleted_at', filter.deleted ? 'is not' : 'is', null)
    .$if(filter.archived, (qb) => qb.where((eb) => eb.not(statusIs(eb, 'active', filter.now))))
    .$if(filter.status !== undefined, (qb) => qb.where((eb) => statusIs(eb, filter.status!, filter.now)))
    .$if(filter.start !== undefined, (qb) => qb.where('start', '>=', filter.start!))
    .$if(filter.end !== undefined, (qb) => qb.where('end', '<=', filter.end!))
    .orderBy('id')
    .execute();
}

export async function insertSignupEvent(db: Db, values: Insertable<SignupEventTable>): Promise<number> {
  const { id } = await db.insertInto('signup_event').values(values).returning('id').executeTakeFirstOrThrow();
  return id;
}

export async function updateSignupEvent(
  db: Db,
  orgId: number,
  id: number,
  values: Updateable<SignupEventTable>,
): Promise<void> {
  await updateOrgRow(db, 'signup_event', orgId, id, values);
}

export function listEventUsers(db: Db, orgId: number, eventId: number): Promise<SignupEventUserRow[]> {
  return orgRows(db, 'signup_event_user', orgId).where('event_id', '=', eventId).orderBy('id').execute();
}

export function findEventUser(
  db: Db,
  orgId: number,
  eventId: number,
  userId: number,
): Promise<SignupEventUserRow | undefined> {
  return orgRows(db, 'signup_event_user', orgId)
    .where('event_id', '=', eventId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

export async function insertEventUser(db: Db, values: Insertable<Database['signup_event_user']>): Promise<number> {
  const { id } = await db.insertInto('signup_event_user').values(values).returning('id').executeTakeFirstOrThrow();
  return id;
}

export async function deleteEventUser(db: Db, orgId: number, id: number): Promise<void> {
  await db.deleteFrom('signup_event_user').where('organization_id', '=', orgId).where('id', '=', id).execute();
}
