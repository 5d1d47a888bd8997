import type { AuthContext } from '../../core/auth/context.js';
import { writeLog } from '../../core/audit.js';
import type { Db } from '../../core/db/transaction.js';
import { checkAll, invalidParams } from '../../core/errors.js';
import { nowUtc } from '../../core/time.js';
import {
  existingIds,
  findProfileOrThrow,
  findTrackOrThrow,
  insertProfile,
  insertTrack,
  renameAccrualRecord,
  replaceRules,
  replaceSteps,
  softDeleteAccrualRecord,
} from './repository.js';
import type { ProfileChangeBody, RuleInput, StepInput, TrackChangeBody } from './schemas.js';

const INTERVAL_METHODS = new Set(['days', 'hours_worked']);

async function checkRules(trx: Db, orgId: number, rules: RuleInput[]) {
  const typeIds = rules.map((rule) => rule.time_off_type_id);
  // one 422 naming every failing field of every rule
  await checkAll([
    () => {
      if (new Set(typeIds).size !== typeIds.length) throw invalidParams('A profile holds one rule per time off type.');
    },
    async () => {
      const found = await existingIds(trx, orgId, 'time_off_type', typeIds);
      if (typeIds.some((id) => !found.has(id))) throw invalidParams('The selected time off type id is invalid.');
    },
    ...rules.flatMap((rule) => [
      () => {
        if (INTERVAL_METHODS.has(rule.method) && rule.interval === undefined)
          throw invalidParams(`The interval field is required for the ${rule.method} method.`);
      },
      () => {
        if (rule.method !== 'none' && rule.hours === undefined)
          throw invalidParams(`The hours field is required for the ${rule.method} method.`);
      },
    ]),
  ]);
}

const ruleRows = (rules: RuleInput[]) =>
  rules.map((rule) => ({
    time_off_type_id: rule.time_off_type_id,
    method: rule.method,
    hours: rule.method === 'none' ? 0 : (rule.hours ?? 0),
    interval: INTERVAL_METHODS.has(rule.method) ? (rule.interval ?? 1) : 1,
    max_hours: rule.max_hours ?? null,
  }));

async function checkSteps(trx: Db, orgId: number, steps: StepInput[]) {
  const years = steps.map((step) => step.from_years);
  // one 422 naming every failing field
  await checkAll([
    () => {
      if (new Set(years).size !== years.length)
        throw invalidParams('Each step of a track starts at a different number of years.');
    },
    async () => {
      const profileIds = steps.map((step) => step.profile_id);
      const found = await existingIds(trx, orgId, 'accrual_profile', profileIds);
      if (profileIds.some((id) => !found.has(id))) throw invalidParams('The selected profile id is invalid.');
    },
  ] as const);
}

export async function saveProfile(
  trx: Db,
  auth: AuthContext,
  id: number | null,
  body: ProfileChangeBody,
): Promise<number> {
  if (body.rules) await checkRules(trx, auth.orgId, body.rules);
  let profileId: number;
  if (id === null) {
    profileId = await insertProfile(trx, auth.orgId, body.name!);
  } else {
    profileId = (await findProfileOrThrow(trx, auth.orgId, id)).id;
    if (body.name !== undefined) await renameAccrualRecord(trx, auth.orgId, 'accrual_profile', id, body.name);
  }
  if (body.rules) await replaceRules(trx, auth.orgId, profileId, ruleRows(body.rules));
  await writeLog(trx, auth, {
    action: id === null ? 'accrual_profile.created' : 'accrual_profile.updated',
    description: `${id === null ? 'created' : 'updated'} accrual profile ${body.name ?? `#${profileId}`}.`,
    entityType: 'accrual_profile',
    entityId: profileId,
    after: body,
  });
  return profileId;
}

export async function saveTrack(trx: Db, auth: AuthContext, id: number | null, body: TrackChangeBody): Promise<number> {
  if (body.steps) await checkSteps(trx, auth.orgId, body.steps);
  let trackId: number;
  if (id === null) {
    trackId = await insertTrack(trx, auth.orgId, body.name!);
  } else {
    trackId = (await findTrackOrThrow(trx, auth.orgId, id)).id;
    if (body.name !== undefined) await renameAccrualRecord(trx, auth.orgId, 'accrual_track', id, body.name);
  }
  if (body.steps) await replaceSteps(trx, auth.orgId, trackId, body.steps);
  await writeLog(trx, auth, {
    action: id === null ? 'accrual_track.created' : 'accrual_track.updated',
    description: `${id === null ? 'created' : 'updated'} accrual track ${body.name ?? `#${trackId}`}.`,
    entityType: 'accrual_track',
    entityId: trackId,
    after: body,
  });
  return trackId;
}

export async function deleteAccrualRecord(
  trx: Db,
  auth: AuthContext,
  table: 'accrual_profile' | 'accrual_track',
  id: number,
) {
  const record =
    table === 'accrual_profile'
      ? await findProfileOrThrow(trx, auth.orgId, id)
      : await findTrackOrThrow(trx, auth.orgId, id);
  await softDeleteAccrualRecord(trx, auth.orgId, table, id, nowUtc());
  await writeLog(trx, auth, {
    action: `${table}.deleted`,
    description: `deleted accrual ${table === 'accrual_profile' ? 'profile' : 'track'} ${record.name}.`,
    entityType: table,
    entityId: id,
    before: record,
  });
}
