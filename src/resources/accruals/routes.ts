import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { withTransaction, type Db } from '../../core/db/transaction.js';
import { invalidParams } from '../../core/errors.js';
import {
  EXTENSION,
  created,
  errorResponses,
  IdParams,
  SuccessBody,
  SuccessWithId,
  UserIdParams,
  routeOptions,
} from '../../core/schemas.js';
import { formatIsoOffset } from '../../core/time.js';
import { findUserOrInvalid, findUserOrThrow } from '../users/repository.js';
import { accrueDue, adjustBank, describeRule, effectiveRules } from './ledger.js';
import {
  balancesOf,
  bankTypeOrInvalid,
  bankTypesByIds,
  listProfiles,
  listRules,
  listSteps,
  listTracks,
  listTransactions,
  liveBankTypes,
} from './repository.js';
import { deleteAccrualRecord, saveProfile, saveTrack } from './rules.js';
import {
  AccrualEntry,
  AccrualEntryStrId,
  BankBody,
  BankEntry,
  BankParams,
  BankWriteResponse,
  LedgerRow,
  ProfileBody,
  ProfileChangeBody,
  ProfileResponse,
  TrackBody,
  TrackChangeBody,
  TrackResponse,
} from './schemas.js';
import { changedWithId, deletedOk } from '../../core/write-handlers.js';

const tags = ['Accruals'];
const route = routeOptions(tags);

async function profilesWithRules(db: Db, orgId: number) {
  const [profiles, rules] = await Promise.all([listProfiles(db, orgId), listRules(db, orgId)]);
  return profiles.map((profile) => ({
    ...profile,
    rules: rules
      .filter((rule) => rule.profile_id === profile.id)
      .map((rule) => ({
        ...rule,
        hours: Number(rule.hours),
        max_hours: rule.max_hours === null ? null : Number(rule.max_hours),
        accrual_type: describeRule(rule),
      })),
  }));
}

async function tracksWithSteps(db: Db, orgId: number) {
  const tracks = await listTracks(db, orgId);
  const steps = await listSteps(
    db,
    orgId,
    tracks.map((track) => track.id),
  );
  return tracks.map((track) => ({ ...track, steps: steps.filter((step) => step.track_id === track.id) }));
}

const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/accruals',
    route('listAccruals', 'Accrual profile entries of every profile of the organization', {
      response: { 200: Type.Array(AccrualEntryStrId) },
    }),
    async (request) => {
      const { orgId } = request.auth;
      const rules = (await profilesWithRules(app.db, orgId)).flatMap((profile) => profile.rules);
      const types = await bankTypesByIds(
        app.db,
        orgId,
        rules.map((rule) => rule.time_off_type_id),
      );
      return rules
        .filter((rule) => types.get(rule.time_off_type_id)?.deleted_at === null)
        .map((rule) => ({
          time_off_type: { id: String(rule.time_off_type_id), name: types.get(rule.time_off_type_id)!.label },
          accrual_type: rule.accrual_type,
        }));
    },
  );

  app.get(
    '/users/:user_id/timeoff/accrual/profile',
    route('getUserAccrualProfile', "The user's accrual rule for every time off type", {
      description:
        'The profile is the accrual track step for the years of service when the user has a track, else ' +
        'the accrual profile. Types without a rule read "No automatic accrual".',
      params: UserIdParams,
      response: { 200: Type.Array(AccrualEntry) },
    }),
    async (request) => {
      const { orgId, timezone } = request.auth;
      const user = await findUserOrThrow(app.db, orgId, request.params.user_id);
      const [rules, types] = await Promise.all([
        effectiveRules(app.db, orgId, user, timezone),
        liveBankTypes(app.db, orgId),
      ]);
      return [...types]
        .sort((a, b) => a.id - b.id)
        .map((type) => {
          const rule = rules.find((r) => r.time_off_type_id === type.id);
          return {
            time_off_type: { id: type.id, name: type.label },
            accrual_type: rule ? describeRule(rule) : 'No automatic accrual',
          };
        });
    },
  );

  app.get(
    '/users/:user_id/timeoff/accrual/bank',
    route('getUserAccrualBank', "The user's balance per time off type (sum of the bank ledger)", {
      description:
        'Calendar accruals that came due are credited first. Lists every type with a ledger row or a rule ' +
        "in the user's profile.",
      params: UserIdParams,
      response: { 200: Type.Array(BankEntry) },
    }),
    async (request) => {
      const { orgId, timezone } = request.auth;
      return withTransaction(app.db, async (trx) => {
        const user = await findUserOrThrow(trx, orgId, request.params.user_id);
        await accrueDue(trx, request.auth, user);
        const [balances, rules] = await Promise.all([
          balancesOf(trx, orgId, user.id),
          effectiveRules(trx, orgId, user, timezone),
        ]);
        const typeIds = [...new Set([...balances.keys(), ...rules.map((rule) => rule.time_off_type_id)])].sort(
          (a, b) => a - b,
        );
        const types = await bankTypesByIds(trx, orgId, typeIds);
        return typeIds
          .filter((id) => types.has(id))
          .map((id) => ({
            hours: balances.get(id) ?? 0,
            time_off_type: { id: String(id), name: types.get(id)!.label },
          }));
      });
    },
  );

  const adjust = async (request: FastifyRequest, userId: number, body: BankBody, pathTypeId?: number) => {
    const { orgId } = request.auth;
    const typeId = body.time_off_type_id ?? pathTypeId;
    if (typeId === undefined) throw invalidParams('The time off type id field is required.');
    if (body.hours === 0) throw invalidParams('The hours must not be zero.');
    const result = await withTransaction(app.db, async (trx) => {
      const user = await findUserOrThrow(trx, orgId, userId);
      const admin = await findUserOrInvalid(trx, orgId, body.admin_id, 'admin id');
      const type = await bankTypeOrInvalid(trx, orgId, typeId);
      return adjustBank(trx, request.auth, { user, admin, type, hours: body.hours, notes: body.notes ?? null });
    });
    return created('Accrual bank updated successfully.', result);
  };
  const bankWrite = {
    summary: "Adds (positive hours) to or deducts (negative) from the user's bank for a type",
    description: 'A manual ledger transaction by `admin_id`; a correction may take the balance below zero.',
    tags,
    body: BankBody,
    response: { 201: BankWriteResponse, ...errorResponses },
  };

  app.post(
    '/users/:user_id/timeoff/accrual/bank',
    { schema: { ...bankWrite, operationId: 'adjustUserAccrualBank', params: UserIdParams } },
    async (request, reply) => {
      reply.status(201);
      return adjust(request, request.params.user_id, request.body);
    },
  );

  app.post(
    '/users/:user_id/timeoff/accrual/bank/:id',
    {
      schema: {
        ...bankWrite,
        operationId: 'adjustUserAccrualBankOfType',
        description: `${bankWrite.description} \`id\` is the time off type when the body has no \`time_off_type_id\`.`,
        params: BankParams,
      },
    },
    async (request, reply) => {
      reply.status(201);
      return adjust(request, request.params.user_id, request.body, request.params.id);
    },
  );

  app.get(
    '/users/:user_id/timeoff/accrual/transactions',
    route('listUserAccrualTransactions', "The user's bank ledger, oldest first (extension)", {
      ...EXTENSION,
      params: UserIdParams,
      response: { 200: Type.Array(LedgerRow) },
    }),
    async (request) => {
      const { orgId, timezone } = request.auth;
      await findUserOrThrow(app.db, orgId, request.params.user_id);
      const rows = await listTransactions(app.db, orgId, request.params.user_id);
      const types = await bankTypesByIds(
        app.db,
        orgId,
        rows.map((row) => row.time_off_type_id),
      );
      return rows.map((row) => ({
        id: row.id,
        time_off_type: { id: row.time_off_type_id, name: types.get(row.time_off_type_id)?.label ?? '' },
        hours: Number(row.hours),
        kind: row.kind,
        admin_id: row.admin_id,
        notes: row.notes,
        time_off_id: row.time_off_id,
        created_at: formatIsoOffset(row.created_at, timezone)!,
        cause: row.cause_action === null ? null : { action: row.cause_action, log_id: row.cause_log_id },
        flagged_date: row.flagged_date,
      }));
    },
  );

  app.get(
    '/accrual_profiles',
    route('listAccrualProfiles', 'Accrual profiles with their rules (extension)', {
      ...EXTENSION,
      response: { 200: Type.Array(ProfileResponse) },
    }),
    async (request) => profilesWithRules(app.db, request.auth.orgId),
  );

  app.post(
    '/accrual_profiles',
    route('createAccrualProfile', 'Creates an accrual profile: one rule per time off type (extension)', {
      ...EXTENSION,
      body: ProfileBody,
      response: { 201: SuccessWithId },
    }),
    async (request, reply) => {
      const id = await withTransaction(app.db, (trx) => saveProfile(trx, request.auth, null, request.body));
      reply.status(201);
      return created('Accrual profile created successfully.', { id });
    },
  );

  app.patch(
    '/accrual_profiles/:id',
    route('updateAccrualProfile', 'Renames a profile and/or replaces its rules (extension)', {
      ...EXTENSION,
      params: IdParams,
      body: ProfileChangeBody,
      response: { 200: SuccessWithId },
    }),
    changedWithId(app.db, saveProfile, 'Accrual profile updated successfully.'),
  );

  app.delete(
    '/accrual_profiles/:id',
    route('deleteAccrualProfile', 'Soft-deletes an accrual profile (extension)', {
      ...EXTENSION,
      params: IdParams,
      response: { 200: SuccessBody },
    }),
    deletedOk(
      app.db,
      (trx, auth, id) => deleteAccrualRecord(trx, auth, 'accrual_profile', id),
      'Accrual profile removed successfully.',
    ),
  );

  app.get(
    '/accrual_tracks',
    route('listAccrualTracks', 'Accrual tracks with their steps (extension)', {
      ...EXTENSION,
      response: { 200: Type.Array(TrackResponse) },
    }),
    async (request) => tracksWithSteps(app.db, request.auth.orgId),
  );

  app.post(
    '/accrual_tracks',
    route('createAccrualTrack', 'Creates an accrual track: profiles chained by years of service (extension)', {
      ...EXTENSION,
      body: TrackBody,
      response: { 201: SuccessWithId },
    }),
    async (request, reply) => {
      const id = await withTransaction(app.db, (trx) => saveTrack(trx, request.auth, null, request.body));
      reply.status(201);
      return created('Accrual track created successfully.', { id });
    },
  );

  app.patch(
    '/accrual_tracks/:id',
    route('updateAccrualTrack', 'Renames a track and/or replaces its steps (extension)', {
      ...EXTENSION,
      params: IdParams,
      body: TrackChangeBody,
      response: { 200: SuccessWithId },
    }),
    changedWithId(app.db, saveTrack, 'Accrual track updated successfully.'),
  );

  app.delete(
    '/accrual_tracks/:id',
    route('deleteAccrualTrack', 'Soft-deletes an accrual track (extension)', {
      ...EXTENSION,
      params: IdParams,
      response: { 200: SuccessBody },
    }),
    deletedOk(
      app.db,
      (trx, auth, id) => deleteAccrualRecord(trx, auth, 'accrual_track', id),
      'Accrual track removed successfully.',
    ),
  );
};

export default routes;
