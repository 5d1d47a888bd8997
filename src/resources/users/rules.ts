import type { Updateable } from 'kysely';
import type { AuthContext } from '../../core/auth/context.js';
import { COMMON_PASSWORD, isCommonPassword } from '../../core/auth/password-rules.js';
import { hashPassword } from '../../core/auth/secrets.js';
import { endUserSessions } from '../../core/auth/sessions.js';
import { clearUserSignInDelays } from '../../core/auth/sign-in-delay.js';
import { logAction } from '../../core/audit.js';
import type { Db } from '../../core/db/transaction.js';
import { checkAll, invalidParams } from '../../core/errors.js';
import { nowUtc } from '../../core/time.js';
import {
  accrualRefExists,
  findUserOrThrow,
  insertUser,
  listUserFields,
  newUserState,
  setFieldValue,
  updateUser,
  usernameTaken,
} from './repository.js';
import type { CreateUserBody, UpdateUserBody } from './schemas.js';
import { fullName } from './serialize.js';
import type { UserAccountTable } from './table.js';

const asList = (value: string | string[] | undefined) =>
  value === undefined ? undefined : Array.isArray(value) ? value : [value];

/** A user without a password (a roster import) cannot sign in to the web app until one is set. */
export async function createUser(
  trx: Db,
  auth: AuthContext,
  body: Omit<CreateUserBody, 'password'> & { password?: string },
): Promise<number> {
  await checkUserFields(trx, auth.orgId, { username: body.username, password: body.password });
  const now = nowUtc();
  const id = await insertUser(trx, {
    organization_id: auth.orgId,
    username: body.username,
    password_hash: body.password === undefined ? null : await hashPassword(body.password),
    employee_id: body.employee_id ?? null,
    first_name: body.first_name,
    last_name: body.last_name,
    role: body.role ?? 'Employee',
    avatar_url: body.avatar_url ?? null,
    date_of_hire: body.date_of_hire ?? null,
    date_of_birth: body.date_of_birth ?? null,
    accrual_start_date: body.accrual_start_date ?? body.date_of_hire ?? null,
    emails: JSON.stringify(asList(body.mail) ?? []),
    phone_numbers: JSON.stringify(asList(body.phone_numbers) ?? asList(body.phone) ?? []),
    ...newUserState(now),
  });
  await logAction(trx, auth, 'user.created', id, {
    description: `created user ${fullName(body)} (${body.username}).`,
    after: { ...body, password: undefined },
  });
  return id;
}

async function checkAccrualRef(
  trx: Db,
  orgId: number,
  table: 'accrual_track' | 'accrual_profile',
  ref: { id: number } | null | undefined,
) {
  if (!ref) return;
  if (!(await accrualRefExists(trx, orgId, table, ref.id))) {
    throw invalidParams(`The selected ${table.replace('_', ' ')} id is invalid.`);
  }
}

/**
 * The rules on a user's fields, one 422 naming every failing field (checkAll): the username free in
 * the organization (but for the user `id` itself), a new password not one of the most common, each
 * reference known. A field left undefined
 * (refused by the schema: the routes' ruleChecks) is not checked.
 */
export async function checkUserFields(trx: Db, orgId: number, body: Partial<UpdateUserBody>, id?: number) {
  await checkAll([
    async () => {
      if (body.username !== undefined && (await usernameTaken(trx, orgId, body.username, id)))
        throw invalidParams('The username has already been taken.');
    },
    async () => {
      if (body.password !== undefined && (await isCommonPassword(body.password))) throw invalidParams(COMMON_PASSWORD);
    },
    () => checkAccrualRef(trx, orgId, 'accrual_profile', body.accrual_profile),
    () => checkAccrualRef(trx, orgId, 'accrual_track', body.accrual_track),
    async () => {
      if (!body.fields?.length) return;
      const known = new Set((await listUserFields(trx, orgId)).map((f) => f.id));
      if (body.fields.some((field) => !known.has(field.id))) throw invalidParams('The selected fields id is invalid.');
    },
  ] as const);
}

export async function changeUser(trx: Db, auth: AuthContext, id: number, body: UpdateUserBody): Promise<void> {
  const before = await findUserOrThrow(trx, auth.orgId, id);
  await checkUserFields(trx, auth.orgId, body, id);

  const changes: Updateable<UserAccountTable> = {};
  const simple = [
    'username',
    'first_name',
    'last_name',
    'employee_id',
    'role',
    'avatar_url',
    'date_of_hire',
    'date_of_birth',
    'accrual_start_date',
  ] as const;
  for (const key of simple) if (body[key] !== undefined) (changes as Record<string, unknown>)[key] = body[key];
  const emails = body.emails ?? asList(body.mail);
  if (emails) changes.emails = JSON.stringify(emails);
  const phones = asList(body.phone_numbers) ?? asList(body.phone);
  if (phones) changes.phone_numbers = JSON.stringify(phones);
  if (body.password !== undefined) changes.password_hash = await hashPassword(body.password);
  if (body.accrual_profile !== undefined) changes.accrual_profile_id = body.accrual_profile?.id ?? null;
  if (body.accrual_track !== undefined) changes.accrual_track_id = body.accrual_track?.id ?? null;
  if (body.active !== undefined) changes.active = body.active ? 1 : 0;
  changes.updated_at = nowUtc();
  await updateUser(trx, auth.orgId, id, changes);
  if (body.password !== undefined) {
    await endUserSessions(trx, auth.orgId, id);
    await clearUserSignInDelays(trx, auth.orgId, id, before.username);
  }

  for (const field of body.fields ?? []) await setFieldValue(trx, auth.orgId, id, field.id, field.value);
  const changed = Object.keys(body).filter((k) => k !== 'password');
  await logAction(trx, auth, 'user.updated', id, {
    description:
      `updated user ${fullName(before)}: ` +
      `${changed.join(', ') || 'no fields'}${body.password ? ' (password changed)' : ''}.`,
    before: { ...before, password_hash: undefined },
    after: { ...body, password: undefined },
  });
}

export async function deleteUser(trx: Db, auth: AuthContext, id: number): Promise<void> {
  const user = await findUserOrThrow(trx, auth.orgId, id);
  await updateUser(trx, auth.orgId, id, { deleted_at: nowUtc(), active: 0, updated_at: nowUtc() });
  await logAction(trx, auth, 'user.deleted', id, {
    description: `deleted user ${fullName(user)} (${user.username}).`,
  });
}
