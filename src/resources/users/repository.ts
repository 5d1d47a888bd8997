import type { Insertable, Updateable } from 'kysely';
import { jsonArrayFrom, parseJsonArray } from '../../core/db/json.js';
import { orgColumns, orgRows, rowsById, updateOrgRow } from '../../core/db/org-rows.js';
import type { Db } from '../../core/db/transaction.js';
import { invalidParams, orNotFound } from '../../core/errors.js';
import type { UserAccountTable, UserRow } from './table.js';
import { compiledOnce } from '../../core/db/compiled-once.js';

export function findUser(db: Db, orgId: number, id: number): Promise<UserRow | undefined> {
  return orgRows(db, 'user_account', orgId).where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();
}

export async function findUserOrThrow(db: Db, orgId: number, id: number): Promise<UserRow> {
  return orNotFound(findUser(db, orgId, id), 'User');
}

/** For ids named in a body: a missing user is a validation error, not a missing route record. */
export async function findUserOrInvalid(db: Db, orgId: number, id: number, field = 'user id'): Promise<UserRow> {
  const user = await findUser(db, orgId, id);
  if (!user) throw invalidParams(`The selected ${field} is invalid.`);
  return user;
}

/** Loads several users in one query; the map is keyed by id. */
export async function findUsersByIds(db: Db, orgId: number, ids: Iterable<number>): Promise<Map<number, UserRow>> {
  return rowsById(
    [...ids].filter((id) => Number.isInteger(id)),
    (unique) => usersByIdsQuery(db, orgId, unique),
  );
}

const usersByIdsQuery = compiledOnce((db: Db, orgId: number, ids: number[]) =>
  db.selectFrom('user_account').selectAll().where('organization_id', '=', orgId).where('id', 'in', ids),
);

/** Checks that every id names a user of the organization; 422 naming the field otherwise. */
export async function assertUsersExist(db: Db, orgId: number, ids: number[], field = 'user id'): Promise<void> {
  const found = await findUsersByIds(db, orgId, ids);
  for (const id of ids) liveUserIn(found, id, field);
}

/** The user of that id among users read with findUsersByIds, unless missing or deleted (422 naming the field). */
export function liveUserIn(users: Map<number, UserRow>, id: number, field = 'user id'): UserRow {
  const user = users.get(id);
  if (!user || user.deleted_at) throw invalidParams(`The selected ${field} is invalid.`);
  return user;
}

export function listUsers(db: Db, orgId: number, filter: { employeeId?: string } = {}): Promise<UserRow[]> {
  return orgRows(db, 'user_account', orgId)
    .where('deleted_at', 'is', null)
    .where('active', '=', 1)
    .$if(filter.employeeId !== undefined, (qb) => qb.where('employee_id', '=', filter.employeeId!))
    .orderBy('id')
    .execute();
}

export async function usernameTaken(db: Db, orgId: number, username: string, exceptId?: number): Promise<boolean> {
  const row = await orgColumns(db, 'user_account', orgId, ['id'])
    .where('username', '=', username)
    .$if(exceptId !== undefined, (qb) => qb.where('id', '!=', exceptId!))
    .executeTakeFirst();
  return row !== undefined;
}

/** What a new user's row holds besides what it is created with: active, on no accrual track or profile. */
export const newUserState = (now: string) => ({
  accrual_track_id: null,
  accrual_profile_id: null,
  active: 1,
  deleted_at: null,
  created_at: now,
  updated_at: now,
});

export async function insertUser(db: Db, values: Insertable<UserAccountTable>): Promise<number> {
  const { id } = await db.insertInto('user_account').values(values).returning('id').executeTakeFirstOrThrow();
  return id;
}

export async function updateUser(
  db: Db,
  orgId: number,
  id: number,
  values: Updateable<UserAccountTable>,
): Promise<void> {
  await updateOrgRow(db, 'user_account', orgId, id, values);
}

/** Names of accrual tracks and profiles referenced by the users, in two queries at most. */
export async function accrualNames(db: Db, orgId: number, users: UserRow[]) {
  const idsOf = (key: 'accrual_track_id' | 'accrual_profile_id') => [
    ...new Set(users.map((u) => u[key]).filter((id): id is number => id !== null)),
  ];
  const namesOf = async (table: 'accrual_track' | 'accrual_profile', ids: number[]) =>
    ids.length
      ? db
          .selectFrom(table)
          .select(['id', 'name'])
          .where('organization_id', '=', orgId)
          .where('id', 'in', ids)
          .execute()
      : [];
  const [tracks, profiles] = await Promise.all([
    namesOf('accrual_track', idsOf('accrual_track_id')),
    namesOf('accrual_profile', idsOf('accrual_profile_id')),
  ]);
  return { tracks: new Map(tracks.map((t) => [t.id, t])), profiles: new Map(profiles.map((p) => [p.id, p])) };
}

export async function accrualRefExists(db: Db, orgId: number, table: 'accrual_track' | 'accrual_profile', id: number) {
  const row = await db
    .selectFrom(table)
    .select('id')
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return row !== undefined;
}

export function listUserFields(db: Db, orgId: number) {
  return orgColumns(db, 'user_field', orgId, ['id', 'label', 'position'])
    .where('deleted_at', 'is', null)
    .orderBy('position')
    .orderBy('id')
    .execute();
}

export async function insertUserField(db: Db, orgId: number, label: string, position: number): Promise<number> {
  const { id } = await db
    .insertInto('user_field')
    .values({ organization_id: orgId, label, position, deleted_at: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export interface UserDetails {
  user: UserRow;
  names: Awaited<ReturnType<typeof accrualNames>>;
  fields: { id: number; label: string; value: string | null }[];
}

/**
 * One user as GET /users/{id} shows it, in one statement: the row, its
 * accrual track and profile names, and every field of the organization with the user's value.
 */
const userDetailsQuery = (db: Db, orgId: number, id: number) =>
  db
    .selectFrom('user_account as u')
    .selectAll('u')
    .select((eb) => [
      eb
        .selectFrom('accrual_track as t')
        .select('t.name')
        .where('t.organization_id', '=', orgId)
        .whereRef('t.id', '=', 'u.accrual_track_id')
        .as('accrual_track_name'),
      eb
        .selectFrom('accrual_profile as p')
        .select('p.name')
        .where('p.organization_id', '=', orgId)
        .whereRef('p.id', '=', 'u.accrual_profile_id')
        .as('accrual_profile_name'),
      jsonArrayFrom(
        db,
        eb
          .selectFrom('user_field as f')
          .leftJoin('user_field_value as v', (join) =>
            join
              .onRef('v.field_id', '=', 'f.id')
              .onRef('v.organization_id', '=', 'f.organization_id')
              .onRef('v.user_id', '=', 'u.id'),
          )
          .select(['f.id', 'f.label', 'v.value'])
          .where('f.organization_id', '=', orgId)
          .where('f.deleted_at', 'is', null)
          .orderBy('f.position')
          .orderBy('f.id'),
      ).as('fields'),
    ])
    .where('u.organization_id', '=', orgId)
    .where('u.id', '=', id)
    .where('u.deleted_at', 'is', null)
    .execute();

export async function findUserDetails(db: Db, orgId: number, id: number): Promise<UserDetails | undefined> {
  const [row] = await userDetailsQuery(db, orgId, id);
  if (!row) return undefined;
  const { accrual_track_name, accrual_profile_name, fields, ...user } = row;
  const names: UserDetails['names'] = { tracks: new Map(), profiles: new Map() };
  if (user.accrual_track_id !== null && accrual_track_name !== null)
    names.tracks.set(user.accrual_track_id, { id: user.accrual_track_id, name: accrual_track_name });
  if (user.accrual_profile_id !== null && accrual_profile_name !== null) {
    names.profiles.set(user.accrual_profile_id, { id: user.accrual_profile_id, name: accrual_profile_name });
  }
  return { user, names, fields: parseJsonArray(fields) };
}

export async function setFieldValue(db: Db, orgId: number, userId: number, fieldId: number, value: string | null) {
  const existing = await orgColumns(db, 'user_field_value', orgId, ['id'])
    .where('user_id', '=', userId)
    .where('field_id', '=', fieldId)
    .executeTakeFirst();
  if (existing) {
    await db
      .updateTable('user_field_value')
      .set({ value })
      .where('organization_id', '=', orgId)
      .where('id', '=', existing.id)
      .execute();
  } else {
    await db
      .insertInto('user_field_value')
      .values({ organization_id: orgId, user_id: userId, field_id: fieldId, value })
      .execute();
  }
}
