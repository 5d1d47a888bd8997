import { parse, CsvError } from 'csv-parse/sync';
import { Type, type Static } from '@sinclair/typebox';
import type { AuthContext } from '../../core/auth/context.js';
import type { Db } from '../../core/db/transaction.js';
import { ApiError, invalidParams } from '../../core/errors.js';
import { DateStr, ShortText } from '../../core/schemas.js';
import { compileCheck } from '../../core/validate.js';
import { listGroups, listGroupsOfUser } from '../groups/repository.js';
import { listActiveQualifiers } from '../qualifiers/repository.js';
import { listQualifiersOfUser } from '../user-memberships/repository.js';
import { MEMBERSHIPS, replaceMemberships, replaceQualifiersOfUser } from '../user-memberships/rules.js';
import { listUsers } from '../users/repository.js';
import { changeUser, createUser } from '../users/rules.js';
import { Digits, Email, type UpdateUserBody } from '../users/schemas.js';
import type { UserRow } from '../users/table.js';

/**
 * Roster CSV import (docs/extensions.md, "Roster CSV"): one user per row, matched by employee_id,
 * else by username; created when neither matches. Every row is checked before anything is written,
 * and all rows are written in the caller's transaction.
 */

/** Cells that hold several values separate them with this. */
const LIST_SEPARATOR = ';';

const List = (item: ReturnType<typeof ShortText>) => Type.Array(item, { maxItems: 50 });
export const RosterRow = Type.Object(
  {
    employee_id: Type.Optional(ShortText({ minLength: 1 })),
    username: Type.Optional(ShortText({ minLength: 1 })),
    first_name: Type.Optional(ShortText({ minLength: 1 })),
    last_name: Type.Optional(ShortText({ minLength: 1 })),
    email: Type.Optional(Type.Array(Email, { maxItems: 10 })),
    phone: Type.Optional(Type.Array(Digits, { maxItems: 10 })),
    role: Type.Optional(ShortText({ minLength: 1 })),
    date_of_hire: Type.Optional(DateStr),
    date_of_birth: Type.Optional(DateStr),
    accrual_start_date: Type.Optional(DateStr),
    qualifiers: Type.Optional(List(ShortText({ minLength: 1 }))),
    groups: Type.Optional(List(ShortText({ minLength: 1 }))),
  },
  { additionalProperties: false },
);
type RosterRow = Static<typeof RosterRow>;
export const ROSTER_COLUMNS = Object.keys(RosterRow.properties);
const LIST_COLUMNS = new Set(['email', 'phone', 'qualifiers', 'groups']);
const checkRow = compileCheck(RosterRow, 'row');

export interface RosterChange {
  line: number;
  action: 'create' | 'update' | 'unchanged';
  user_id: number | null;
  username: string;
  /** The fields that change (all the row's fields for a new user). */
  changes: string[];
}

export interface RosterResult {
  dry_run: boolean;
  created: number;
  updated: number;
  unchanged: number;
  rows: RosterChange[];
}

interface PlannedRow {
  line: number;
  row: RosterRow;
  user: UserRow | undefined;
  qualifierIds?: number[];
  groupIds?: number[];
}

const columnName = (header: string) =>
  header
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');

/** The rows of the CSV text with their line numbers; a header row names the columns. */
function readCsv(text: string): Array<{ line: number; row: Record<string, unknown> }> {
  let records: Array<{ record: Record<string, string>; info: { lines: number } }>;
  try {
    records = parse(text, {
      bom: true,
      columns: (header: string[]) => header.map(columnName),
      skip_empty_lines: true,
      trim: true,
      info: true,
    });
  } catch (error) {
    if (error instanceof CsvError)
      throw invalidParams(`line ${(error as CsvError & { lines?: number }).lines ?? '?'}: ${error.message}`);
    throw error;
  }
  if (records.length === 0) throw invalidParams('The roster has no rows: a header row and one row per user.');
  const unknown = Object.keys(records[0].record).filter((column) => !ROSTER_COLUMNS.includes(column));
  if (unknown.length > 0)
    throw invalidParams(`line 1: unknown column ${unknown.join(', ')} (known: ${ROSTER_COLUMNS.join(', ')}).`);
  return records.map(({ record, info }) => {
    const row: Record<string, unknown> = {};
    for (const [column, cell] of Object.entries(record)) {
      if (cell === '') continue; // an empty cell leaves the field as it is
      row[column] = LIST_COLUMNS.has(column)
        ? cell
            .split(LIST_SEPARATOR)
            .map((item) => item.trim())
            .filter(Boolean)
        : cell;
    }
    return { line: info.lines, row };
  });
}

const byName = <T extends { id: number }>(rows: T[], name: (row: T) => string) =>
  new Map(rows.map((row) => [name(row).trim().toLowerCase(), row.id]));

/** Every row checked against the organization: returns the plan, or throws naming each bad row's line. */
async function planRoster(db: Db, orgId: number, text: string): Promise<PlannedRow[]> {
  const rows = readCsv(text);
  const [users, qualifiers, groups] = await Promise.all([
    listUsers(db, orgId),
    listActiveQualifiers(db, orgId),
    listGroups(db, orgId),
  ]);
  const byEmployeeId = new Map(users.filter((u) => u.employee_id).map((u) => [u.employee_id!, u]));
  const byUsername = new Map(users.map((u) => [u.username, u]));
  const qualifierIds = byName(qualifiers, (q) => q.name);
  const groupIds = byName(groups, (g) => g.name);
  const errors: string[] = [];
  const seen = new Map<number | string, number>();
  const planned: PlannedRow[] = [];
  for (const { line, row: raw } of rows) {
    const problems = checkRow(raw);
    const row = raw as RosterRow;
    if (problems.length === 0) {
      if (!row.employee_id && !row.username) problems.push('The employee id or the username is required.');
      const user =
        (row.employee_id ? byEmployeeId.get(row.employee_id) : undefined) ??
        (row.username ? byUsername.get(row.username) : undefined);
      if (!user) {
        for (const field of ['username', 'first_name', 'last_name', 'email'] as const) {
          if (!row[field]) problems.push(`The ${field.replace('_', ' ')} field is required for a new user.`);
        }
      }
      const key = user?.id ?? `new:${row.username}`;
      if (seen.has(key)) problems.push(`The user is on line ${seen.get(key)} already.`);
      seen.set(key, line);
      const resolve = (names: string[] | undefined, ids: Map<string, number>, kind: string) => {
        if (!names) return undefined;
        const unknown = names.filter((name) => !ids.has(name.toLowerCase()));
        if (unknown.length > 0) problems.push(`unknown ${kind} ${unknown.map((name) => `"${name}"`).join(', ')}.`);
        return [...new Set(names.map((name) => ids.get(name.toLowerCase())!))];
      };
      planned.push({
        line,
        row,
        user,
        qualifierIds: resolve(row.qualifiers, qualifierIds, 'qualifier'),
        groupIds: resolve(row.groups, groupIds, 'group'),
      });
    }
    for (const problem of problems) errors.push(`line ${line}: ${problem}`);
  }
  if (errors.length > 0) throw invalidParams(errors.slice(0, 50));
  return planned;
}

/** The row's fields as PATCH /users would take them, only those that differ from the user. */
function userChanges(row: RosterRow, user: UserRow | undefined): UpdateUserBody {
  const body: UpdateUserBody = {};
  for (const key of [
    'employee_id',
    'username',
    'first_name',
    'last_name',
    'role',
    'date_of_hire',
    'date_of_birth',
    'accrual_start_date',
  ] as const) {
    if (row[key] !== undefined && row[key] !== user?.[key]) body[key] = row[key];
  }
  if (row.email && JSON.stringify(row.email) !== user?.emails) body.emails = row.email;
  if (row.phone && JSON.stringify(row.phone) !== user?.phone_numbers) body.phone_numbers = row.phone;
  return body;
}

const sameSet = (a: number[], b: number[]) => a.length === b.length && a.every((id) => b.includes(id));

/**
 * Imports a roster: checks every row, then (unless a dry run) creates and updates the users, their
 * qualifiers and groups, each change logged as the API logs it. A row the users' rules refuse
 * (a username taken by a deactivated user) fails the whole import, naming its line.
 */
export async function importRoster(
  trx: Db,
  auth: AuthContext,
  text: string,
  options: { dryRun: boolean },
): Promise<RosterResult> {
  const planned = await planRoster(trx, auth.orgId, text);
  const result: RosterResult = { dry_run: options.dryRun, created: 0, updated: 0, unchanged: 0, rows: [] };
  for (const { line, row, user, qualifierIds, groupIds } of planned) {
    const body = userChanges(row, user);
    const currentQualifiers =
      user && qualifierIds ? (await listQualifiersOfUser(trx, auth.orgId, user.id)).map((q) => q.id) : [];
    const currentGroups = user && groupIds ? (await listGroupsOfUser(trx, auth.orgId, user.id)).map((g) => g.id) : [];
    const setQualifiers = qualifierIds !== undefined && (!user || !sameSet(qualifierIds, currentQualifiers));
    const setGroups = groupIds !== undefined && (!user || !sameSet(groupIds, currentGroups));
    const changes = [...Object.keys(body), ...(setQualifiers ? ['qualifiers'] : []), ...(setGroups ? ['groups'] : [])];
    const action = !user ? 'create' : changes.length > 0 ? 'update' : 'unchanged';
    let userId = user?.id ?? null;
    if (!options.dryRun) {
      try {
        if (!user) {
          const { qualifiers: _q, groups: _g, email, phone, ...fields } = row;
          userId = await createUser(trx, auth, {
            ...fields,
            username: row.username!,
            first_name: row.first_name!,
            last_name: row.last_name!,
            mail: email!,
            phone_numbers: phone,
          });
        } else if (Object.keys(body).length > 0) {
          await changeUser(trx, auth, user.id, body);
        }
        if (setQualifiers)
          await replaceQualifiersOfUser(trx, auth, userId!, { ids: qualifierIds!.map((id) => ({ id })) });
        if (setGroups) await replaceMemberships(trx, auth, MEMBERSHIPS.groups, userId!, groupIds!);
      } catch (error) {
        if (error instanceof ApiError && error.statusCode === 422) {
          throw invalidParams(([] as string[]).concat(error.errorMessage).map((message) => `line ${line}: ${message}`));
        }
        throw error;
      }
    }
    result[action === 'create' ? 'created' : action === 'update' ? 'updated' : 'unchanged'] += 1;
    result.rows.push({
      line,
      action,
      user_id: userId,
      username: row.username ?? user!.username,
      changes: action === 'create' ? Object.keys(row) : changes,
    });
  }
  return result;
}
