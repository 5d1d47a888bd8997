import type { FastifyRequest } from 'fastify';
import type { AuthContext } from '../../core/auth/context.js';
import { logAction } from '../../core/audit.js';
import type { Db } from '../../core/db/transaction.js';
import { checkAll, invalidParams } from '../../core/errors.js';
import { href } from '../../core/pagination.js';
import { assertPeriod, formatDate, hoursBetween, normalizeLocalDateTime, todayIn } from '../../core/time.js';
import { lockUsers } from '../../core/db/locks.js';
import { availabilityOf, datedHoursFatigue, refusalMessage, type Reason } from '../../scheduling/index.js';
import { overrideFatigue } from '../fatigue-rules/repository.js';
import { findUserOrInvalid, findUsersByIds } from '../users/repository.js';
import type { UserRow } from '../users/table.js';
import { fullName } from '../users/serialize.js';
import { findWorkSubtype, findWorkTypeOrInvalid } from '../work-types/repository.js';
import {
  deleteMiscHour,
  findMiscHourOrThrow,
  insertMiscHour,
  miscForRange,
  type MiscHourWithType,
} from './repository.js';
import type { CreateMiscHourBody, MiscHourResponse, MiscHoursQuery } from './schemas.js';

function serializeMiscHour(
  request: Pick<FastifyRequest, 'baseUrl'>,
  row: MiscHourWithType,
  userName: string,
): MiscHourResponse {
  return {
    id: row.id,
    href: href(request, `/misc/${row.id}`),
    date: row.date,
    length: row.length,
    user: { id: row.user_id, name: userName, href: href(request, `/users/${row.user_id}`) },
    work_type: row.work_type,
    work_type_id: row.work_type_id,
    work_subtype_id: row.work_subtype_id,
    start: row.start,
    end: row.end,
    notes: row.notes,
  };
}

async function serializeAll(db: Db, request: FastifyRequest, rows: MiscHourWithType[]) {
  const users = await findUsersByIds(
    db,
    request.auth.orgId,
    rows.map((row) => row.user_id),
  );
  return rows.map((row) => {
    const user = users.get(row.user_id);
    return serializeMiscHour(request, row, user ? fullName(user) : '');
  });
}

/** `start`/`end` give the length unless `length` is sent; without them `length` is required. */
function periodOf(body: CreateMiscHourBody): { start: string | null; end: string | null; length: number | undefined } {
  if ((body.start === undefined) !== (body.end === undefined))
    throw invalidParams('The start and end fields must be given together.');
  if (body.start === undefined || body.end === undefined) return { start: null, end: null, length: body.length };
  const start = normalizeLocalDateTime(body.start);
  const end = normalizeLocalDateTime(body.end);
  assertPeriod(start, end, { within: 'period' });
  return { start, end, length: body.length };
}

export async function createMiscHour(trx: Db, auth: AuthContext, body: CreateMiscHourBody): Promise<number> {
  // one 422 naming every failing field
  const [period, user, workType] = await checkAll([
    () => {
      const period = periodOf(body);
      const length =
        period.length ??
        (period.start && period.end ? hoursBetween(period.start, period.end, auth.timezone) : undefined);
      if (length === undefined) throw invalidParams('The length field is required when start and end are not present.');
      return { ...period, length };
    },
    () => findUserOrInvalid(trx, auth.orgId, body.user_id),
    async () => {
      const workType = await findWorkTypeOrInvalid(trx, auth.orgId, body.work_type_id);
      if (body.work_subtype_id) {
        const subtype = await findWorkSubtype(trx, auth.orgId, body.work_subtype_id);
        if (!subtype || subtype.work_type_id !== workType.id)
          throw invalidParams('The selected work subtype id is invalid.');
      }
      return workType;
    },
  ] as const);
  const { length } = period;
  const values = {
    user_id: user.id,
    date: body.date,
    start: period.start,
    end: period.end,
    length,
    work_type_id: workType.id,
    work_subtype_id: body.work_subtype_id ?? null,
    notes: body.notes ?? null,
    source: null,
    source_id: null,
  };
  await lockUsers(trx, [user.id]);
  const id = await insertMiscHour(trx, auth.orgId, values);
  await assertRested(trx, auth, { id, ...values }, user, body);
  await logAction(trx, auth, 'misc_hour.created', id, {
    description: `added ${length} misc hours (${workType.label}) for ${fullName(user)} on ${body.date}.`,
    after: values,
  });
  return id;
}

/**
 * Misc hours are worked hours: the department's fatigue rules (docs/contract-rules.md#fatigue-rules) apply,
 * 422 with the rule's words unless an admin gives `override_reason` (logged). Only the fatigue rules, as for
 * a sign-up; hours of a date and a length only (no times) meet the period rule alone, in the work period
 * holding their date. Runs after the write, under the user's lock; the error rolls it back.
 */
async function assertRested(
  trx: Db,
  auth: AuthContext,
  misc: { id: number; date: string; length: number; start: string | null; end: string | null },
  user: UserRow,
  body: CreateMiscHourBody,
): Promise<void> {
  let reasons: Reason[];
  if (misc.start && misc.end) {
    const request = { start: misc.start, end: misc.end, userIds: [user.id], timezone: auth.timezone };
    reasons = (await availabilityOf(trx, auth.orgId, request)).get(user.id)!.reasons;
  } else {
    reasons = await datedHoursFatigue(trx, auth.orgId, { userId: user.id, date: misc.date, timezone: auth.timezone });
  }
  const when =
    misc.start && misc.end
      ? `${misc.start.slice(0, 16)} to ${misc.end.slice(0, 16)}`
      : `of a date and a length, ${misc.length} h on ${misc.date}`;
  await overrideFatigue(trx, auth, reasons, {
    override: body.override_reason,
    refusal: (reason) => invalidParams(refusalMessage(fullName(user), 'these misc hours', reason)),
    who: `${fullName(user)} (misc hours ${when})`,
    entity: { type: 'misc_hour', id: misc.id },
  });
}

export async function removeMiscHour(trx: Db, auth: AuthContext, id: number): Promise<void> {
  const before = await findMiscHourOrThrow(trx, auth.orgId, id);
  await deleteMiscHour(trx, auth.orgId, id);
  await logAction(trx, auth, 'misc_hour.deleted', id, {
    description:
      `removed ${before.length} misc hours (${before.work_type ?? 'work'}) of user #${before.user_id} on ` +
      `${before.date}.`,
    before,
  });
}

export async function listMiscHours(db: Db, request: FastifyRequest, query: MiscHoursQuery) {
  const today = formatDate(todayIn(request.auth.timezone));
  const start = query.start ?? today;
  const end = query.end ?? start;
  assertPeriod(start, end, { allowEqual: true });
  return serializeAll(db, request, await miscForRange(db, request.auth.orgId, start, end, query.user_id));
}

export async function loadMiscHour(db: Db, request: FastifyRequest, id: number) {
  const [item] = await serializeAll(db, request, [await findMiscHourOrThrow(db, request.auth.orgId, id)]);
  return item!;
}
