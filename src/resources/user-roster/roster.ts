import contentType from 'content-type';
import { parse, CsvError } from 'csv-parse/sync';
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import type { AuthContext } from '../../core/auth/context.js';
import { type Db, withTransaction } from '../../core/db/transaction.js';
import { countAttempt } from '../../core/auth/attempts.js';
import { ApiError, badRequest, invalidParams, tooManyRequests, unsupportedMediaType } from '../../core/errors.js';
import { DateStr, ShortText } from '../../core/schemas.js';
import { toCsv } from '../../core/csv.js';
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

/**
 * The roster's text from the request's bytes and its declared charset: UTF-8 only (US-ASCII is a
 * part of it), since a spreadsheet's other encodings would otherwise arrive as U+FFFD in names.
 * 415 for another declared charset, 400 naming the first byte that is not UTF-8.
 */
export function rosterText(bytes: Buffer, charset: string | undefined): string {
  const declared = charset?.toLowerCase();
  if (declared !== undefined && !['utf-8', 'utf8', 'us-ascii'].includes(declared))
    throw unsupportedMediaType(
      `A roster CSV must be UTF-8; the charset ${declared} is not supported. Save the file as "CSV UTF-8".`,
    );
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    const valid = validUtf8Prefix(bytes);
    const line = bytes.subarray(0, valid).toString('utf8').split('\n').length;
    throw badRequest(
      `The roster is not valid UTF-8: line ${line}, byte ${valid + 1} (0x${bytes[valid]!.toString(16)}). ` +
        'Save the file as "CSV UTF-8".',
    );
  }
}

/** The charset a Content-Type header declares, if any. */
export function charsetOf(header: string | undefined): string | undefined {
  try {
    return contentType.parse(header ?? '').parameters.charset;
  } catch {
    return undefined; // a malformed parameter list: the type itself matched
  }
}

/** How many leading bytes are whole, valid UTF-8 (the offset of the first invalid sequence). */
function validUtf8Prefix(bytes: Buffer): number {
  let low = 0;
  let high = bytes.length;
  const decodes = (end: number, stream: boolean) => {
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, end), { stream });
      return true;
    } catch {
      return false;
    }
  };
  // a prefix that ends inside a character is not refused while streaming: the test is monotonic
  const validUpTo = (end: number) => decodes(end, true);
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (validUpTo(middle)) low = middle;
    else high = middle - 1;
  }
  // back to the start of the sequence the prefix ends inside (at most 3 bytes)
  while (low > 0 && !decodes(low, false)) low -= 1;
  return low;
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
      columns: (header: string[]) => {
        const names = header.map(columnName);
        const twice = [...new Set(names.filter((name, index) => names.indexOf(name) !== index))];
        if (twice.length > 0)
          throw invalidParams(
            `line 1: the column ${twice.join(', ')} appears more than once; each column may appear once.`,
          );
        return names;
      },
      skip_empty_lines: true,
      trim: true,
      info: true,
    });
  } catch (error) {
    if (error instanceof ApiError) throw error;
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

/** Imports that write, per organization and hour, through the API (dry runs and refused rosters are free). */
export const ROSTER_IMPORT_LIMIT = { max: 10, windowMs: 60 * 60 * 1000 };

/**
 * Counts one import that writes for the organization (in the database: every server process
 * shares the count); 429 with Retry-After past ROSTER_IMPORT_LIMIT.
 */
export async function limitRosterImports(db: Db, orgId: number, reply: FastifyReply): Promise<void> {
  const count = await countAttempt(db, `roster-import:${orgId}`, ROSTER_IMPORT_LIMIT);
  if (count.allowed) return;
  reply.header('Retry-After', count.retryAfterSeconds);
  throw tooManyRequests(
    `At most ${ROSTER_IMPORT_LIMIT.max} roster imports an hour; retry in ${count.retryAfterSeconds} seconds.`,
  );
}

/** The columns GET /users/export writes: the import's, without qualifiers and groups. */
const EXPORT_COLUMNS = ROSTER_COLUMNS.filter((column) => column !== 'qualifiers' && column !== 'groups');

/**
 * The organization's active users as a roster CSV the import reads back (qualifiers and groups
 * are left out). Cells are written by core/csv.ts: one that begins like a formula is neutralised.
 */
export async function exportRoster(db: Db, orgId: number): Promise<string> {
  const users = await listUsers(db, orgId);
  const list = (json: string) => (JSON.parse(json) as string[]).join(`${LIST_SEPARATOR} `);
  return toCsv(
    EXPORT_COLUMNS,
    users.map((user) => [
      user.employee_id,
      user.username,
      user.first_name,
      user.last_name,
      list(user.emails),
      list(user.phone_numbers),
      user.role,
      user.date_of_hire,
      user.date_of_birth,
      user.accrual_start_date,
    ]),
  );
}

/** Rows written per transaction: what one import may hold the database's writer for (issue 41, F5). */
export const ROSTER_BATCH_ROWS = 100;

/**
 * Imports a roster: checks every row first (nothing is written when any is bad), then, unless a dry
 * run, creates and updates the users, their qualifiers and groups, each change logged as the API
 * logs it, in transactions of `batchRows` rows. Between them the writer is free for everyone
 * else's requests (on SQLite the import's next batch queues behind them), so a big roster no
 * longer stalls every organization. A row the users' rules refuse at write time (changed by
 * another request since the check) answers 422 naming its line and the lines already imported.
 */
export async function importRoster(
  db: Db,
  auth: AuthContext,
  text: string,
  options: { dryRun: boolean; batchRows?: number; beforeWrite?: () => Promise<void> },
): Promise<RosterResult> {
  const planned = await planRoster(db, auth.orgId, text);
  if (!options.dryRun) await options.beforeWrite?.();
  const result: RosterResult = { dry_run: options.dryRun, created: 0, updated: 0, unchanged: 0, rows: [] };
  const batchRows = options.batchRows ?? ROSTER_BATCH_ROWS;
  for (let first = 0; first < planned.length; first += batchRows) {
    // SQLite's driver is synchronous: without a turn of the event loop the whole import would run
    // in one, and no other request could even be read from its socket until it ended
    if (first > 0) await new Promise((resolve) => setImmediate(resolve));
    const batch = planned.slice(first, first + batchRows);
    try {
      const rows = options.dryRun
        ? await writeBatch(db, auth, batch, true)
        : await withTransaction(db, (trx) => writeBatch(trx, auth, batch, false));
      for (const row of rows) {
        result[row.action === 'create' ? 'created' : row.action === 'update' ? 'updated' : 'unchanged'] += 1;
        result.rows.push(row);
      }
    } catch (error) {
      if (error instanceof ApiError && error.statusCode === 422 && first > 0)
        throw invalidParams([
          ...([] as string[]).concat(error.errorMessage),
          `Lines ${planned[0]!.line} to ${planned[first - 1]!.line} were imported; nothing from line ` +
            `${batch[0]!.line} on. Correct the roster and import it again: imported rows are then unchanged.`,
        ]);
      throw error;
    }
  }
  return result;
}

/** One batch of planned rows, written (unless a dry run) in the caller's transaction. */
async function writeBatch(trx: Db, auth: AuthContext, batch: PlannedRow[], dryRun: boolean): Promise<RosterChange[]> {
  const changed: RosterChange[] = [];
  for (const { line, row, user, qualifierIds, groupIds } of batch) {
    const body = userChanges(row, user);
    const currentQualifiers =
      user && qualifierIds ? (await listQualifiersOfUser(trx, auth.orgId, user.id)).map((q) => q.id) : [];
    const currentGroups = user && groupIds ? (await listGroupsOfUser(trx, auth.orgId, user.id)).map((g) => g.id) : [];
    const setQualifiers = qualifierIds !== undefined && (!user || !sameSet(qualifierIds, currentQualifiers));
    const setGroups = groupIds !== undefined && (!user || !sameSet(groupIds, currentGroups));
    const changes = [...Object.keys(body), ...(setQualifiers ? ['qualifiers'] : []), ...(setGroups ? ['groups'] : [])];
    const action = !user ? 'create' : changes.length > 0 ? 'update' : 'unchanged';
    let userId = user?.id ?? null;
    if (!dryRun) {
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
    changed.push({
      line,
      action,
      user_id: userId,
      username: row.username ?? user!.username,
      changes: action === 'create' ? Object.keys(row) : changes,
    });
  }
  return changed;
}
