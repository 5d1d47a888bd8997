import type { AuthContext } from '../../core/auth/context.js';
import { logAction } from '../../core/audit.js';
import type { Db } from '../../core/db/transaction.js';
import { invalidParams, notFound } from '../../core/errors.js';
import { assertActiveFiltersExist, listFiltersOfUser, replaceFiltersOfUser } from '../filters/repository.js';
import { assertGroupsExist, listGroupsOfUser, replaceGroupsOfUser } from '../groups/repository.js';
import { assertActiveListsExist, listListsOfUser, replaceListsOfUser } from '../lists/repository.js';
import { findActiveQualifiersOrInvalid, findQualifierOrThrow } from '../qualifiers/repository.js';
import { findUserOrThrow } from '../users/repository.js';
import { fullName } from '../users/serialize.js';
import {
  deleteUserQualifier,
  findUserQualifier,
  insertUserQualifier,
  listQualifiersOfUser,
  nextRanking,
  replaceUserQualifiers,
} from './repository.js';
import type { AddQualifierBody, ReplaceQualifiersBody } from './schemas.js';

interface Membership {
  kind: string;
  assertExist(db: Db, orgId: number, ids: number[]): Promise<void>;
  current(db: Db, orgId: number, userId: number): Promise<Array<{ id: number }>>;
  replace(db: Db, orgId: number, userId: number, ids: number[]): Promise<void>;
}

export const MEMBERSHIPS = {
  titles: {
    kind: 'callback lists',
    assertExist: assertActiveListsExist,
    current: listListsOfUser,
    replace: replaceListsOfUser,
  },
  filters: {
    kind: 'specialty filters',
    assertExist: assertActiveFiltersExist,
    current: listFiltersOfUser,
    replace: replaceFiltersOfUser,
  },
  groups: { kind: 'groups', assertExist: assertGroupsExist, current: listGroupsOfUser, replace: replaceGroupsOfUser },
} satisfies Record<string, Membership>;

/** PUT /users/{id}/titles|filters|groups: the ids become the user's whole set. */
export async function replaceMemberships(
  trx: Db,
  auth: AuthContext,
  membership: Membership,
  userId: number,
  ids: number[],
) {
  const user = await findUserOrThrow(trx, auth.orgId, userId);
  await membership.assertExist(trx, auth.orgId, ids);
  const before = (await membership.current(trx, auth.orgId, userId)).map((row) => row.id);
  await membership.replace(trx, auth.orgId, userId, ids);
  await logAction(trx, auth, 'user.memberships_replaced', userId, {
    description: `replaced the ${membership.kind} of ${fullName(user)}`,
    before: { [membership.kind]: before },
    after: { [membership.kind]: [...new Set(ids)] },
  });
}

export async function addUserQualifier(trx: Db, auth: AuthContext, userId: number, body: AddQualifierBody) {
  const user = await findUserOrThrow(trx, auth.orgId, userId);
  const qualifier = (await findActiveQualifiersOrInvalid(trx, auth.orgId, [body.id])).get(body.id)!;
  if (await findUserQualifier(trx, auth.orgId, userId, body.id)) {
    throw invalidParams(`User ${fullName(user)} already has qualifier ${qualifier.name}.`);
  }
  const ranking = body.ranking ?? (await nextRanking(trx, auth.orgId, userId));
  await insertUserQualifier(trx, auth.orgId, userId, body.id, ranking);
  const message = `Added user ${fullName(user)} to qualifier ${qualifier.name}.`;
  await logAction(trx, auth, 'user.qualifier_added', userId, {
    description: `added user ${fullName(user)} to qualifier ${qualifier.name} (ranking ${ranking})`,
    after: { qualifier_id: body.id, ranking },
  });
  return message;
}

/** Rankings left out are the entry's place in the list (1-based). */
export async function replaceQualifiersOfUser(trx: Db, auth: AuthContext, userId: number, body: ReplaceQualifiersBody) {
  const user = await findUserOrThrow(trx, auth.orgId, userId);
  const ids = body.ids.map((entry) => entry.id);
  if (new Set(ids).size !== ids.length) throw invalidParams('The ids field has a duplicate qualifier id.');
  await findActiveQualifiersOrInvalid(trx, auth.orgId, ids);
  const before = await listQualifiersOfUser(trx, auth.orgId, userId);
  const entries = body.ids.map((entry, index) => ({ id: entry.id, ranking: entry.ranking ?? index + 1 }));
  await replaceUserQualifiers(trx, auth.orgId, userId, entries);
  await logAction(trx, auth, 'user.qualifiers_replaced', userId, {
    description: `replaced the qualifiers of ${fullName(user)}`,
    before: before.map((row) => ({ id: row.id, ranking: row.ranking })),
    after: entries,
  });
}

export async function removeUserQualifier(trx: Db, auth: AuthContext, userId: number, qualifierId: number) {
  const user = await findUserOrThrow(trx, auth.orgId, userId);
  const qualifier = await findQualifierOrThrow(trx, auth.orgId, qualifierId);
  const held = await findUserQualifier(trx, auth.orgId, userId, qualifierId);
  if (!held) throw notFound('UserQualifier');
  await deleteUserQualifier(trx, auth.orgId, userId, qualifierId);
  await logAction(trx, auth, 'user.qualifier_removed', userId, {
    description: `removed user ${fullName(user)} from qualifier ${qualifier.name}`,
    before: { qualifier_id: qualifierId, ranking: held.ranking },
  });
  return `Removed user ${fullName(user)} from qualifier ${qualifier.name}.`;
}
