import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  EXTENSION,
  IdParams,
  IdName,
  Nullable,
  NullableString,
  routeOptions,
  UserIdParams,
} from '../../core/schemas.js';
import { utcToLocal } from '../../core/time.js';
import { findCallbackOrThrow } from '../callbacks/repository.js';
import {
  listContacts,
  listDecisionLines,
  listDecisions,
  listUserContacts,
  listUserDecisionLines,
} from '../callbacks/decisions/repository.js';
import type { OrderingInput } from '../callbacks/ordering/candidates.js';
import { findUserOrThrow, findUsersByIds } from '../users/repository.js';
import { fullName } from '../users/serialize.js';
import { replayCallback } from './replay.js';

const tags = ['Callbacks'];
const route = routeOptions(tags);

const Inputs = Nullable(
  Type.Object({
    hours_charged: Type.Number(),
    last_offered: NullableString(),
    last_accepted: NullableString(),
    last_forced: NullableString(),
    date_of_hire: NullableString(),
    list_position: Type.Integer(),
  }),
);
const Line = Type.Object({
  user: IdName,
  verdict: Type.String({ description: 'candidate, skipped, offered, already_offered, do_not_disturb, no_answer, …' }),
  position: Nullable(Type.Integer()),
  reason_code: NullableString(),
  reason: NullableString(),
  inputs: Inputs,
});
const Decision = Type.Object({
  id: Type.Integer(),
  kind: Type.String({ description: 'start, pass or answer' }),
  at: Type.String({ description: 'local datetime' }),
  ordering: NullableString(),
  rules: Type.Unknown({ description: "the list's settings and the organization's rules in force (JSON), or null" }),
  rules_hash: NullableString(),
  lines: Type.Array(Line),
});
const Contact = Type.Object({
  user: IdName,
  purpose: Type.String(),
  channel: Type.String(),
  at: Type.String({ description: 'local datetime' }),
  result: Type.String({ description: 'sent, held (a sent contact follows when it goes out), failed or unavailable' }),
  receipt: NullableString(),
  detail: NullableString(),
});
const Decisions = Type.Object({
  callback_id: Type.Integer(),
  decisions: Type.Array(Decision),
  contacts: Type.Array(Contact),
});
const UserLine = Type.Object({
  callback_id: Type.Integer(),
  decision_id: Type.Integer(),
  kind: Type.String(),
  at: Type.String({ description: 'local datetime' }),
  ordering: NullableString(),
  verdict: Type.String(),
  position: Nullable(Type.Integer()),
  reason_code: NullableString(),
  reason: NullableString(),
  inputs: Inputs,
  rules_hash: NullableString(),
});
const UserDecisions = Type.Object({ lines: Type.Array(UserLine), contacts: Type.Array(Contact) });
const ReplayResult = Type.Object({
  callback_id: Type.Integer(),
  ordering: NullableString(),
  recorded: Type.Boolean(),
  identical: Type.Boolean(),
  stored_order: Type.Array(Type.Integer()),
  replayed_order: Type.Array(Type.Integer()),
  current_order: Type.Array(Type.Integer()),
  input_changes: Type.Array(
    Type.Object({ user_id: Type.Integer(), field: Type.String(), stored: Type.Unknown(), current: Type.Unknown() }),
  ),
  differences: Type.Array(Type.String()),
  notes: Type.Array(Type.String()),
});

/** The ordering inputs of one user from a start record's JSON. */
function inputsOf(json: string | null, userId: number) {
  const input = (JSON.parse(json ?? '[]') as OrderingInput[]).find((i) => i.user_id === userId);
  if (!input) return null;
  const { hours_charged, last_offered, last_accepted, last_forced, date_of_hire, list_position } = input;
  return { hours_charged, last_offered, last_accepted, last_forced, date_of_hire, list_position };
}

/** Decision records and replay (docs/workflows.md, "Decision records", "Replay"). */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/callbacks/:id/decisions',
    route('listCallbackDecisions', "A callback's decision records, contacts and answers (extension; admins)", {
      ...EXTENSION,
      params: IdParams,
      response: { 200: Decisions },
    }),
    async (request) => {
      const { orgId, timezone } = request.auth;
      const id = request.params.id;
      await findCallbackOrThrow(app.db, orgId, id);
      const [decisions, lines, contacts] = await Promise.all([
        listDecisions(app.db, orgId, id),
        listDecisionLines(app.db, orgId, id),
        listContacts(app.db, orgId, id),
      ]);
      const people = await findUsersByIds(app.db, orgId, [
        ...lines.map((l) => l.user_id),
        ...contacts.map((c) => c.user_id),
      ]);
      const user = (userId: number) => {
        const person = people.get(userId);
        return { id: userId, name: person ? fullName(person) : `#${userId}` };
      };
      return {
        callback_id: id,
        decisions: decisions.map((d) => ({
          id: d.id,
          kind: d.kind,
          at: utcToLocal(d.at, timezone),
          ordering: d.ordering,
          rules: d.rules === null ? null : JSON.parse(d.rules),
          rules_hash: d.rules_hash,
          lines: lines
            .filter((l) => l.decision_id === d.id)
            .map((l) => ({
              user: user(l.user_id),
              verdict: l.verdict,
              position: l.position,
              reason_code: l.reason_code,
              reason: l.reason,
              inputs: d.kind === 'start' ? inputsOf(d.inputs, l.user_id) : null,
            })),
        })),
        contacts: contacts.map((c) => ({ ...c, user: user(c.user_id), at: utcToLocal(c.at, timezone) })),
      };
    },
  );

  app.get(
    '/users/:user_id/callback_decisions',
    route('listUserCallbackDecisions', "A user's lines of the callbacks' decision records (extension)", {
      ...EXTENSION,
      description: 'Why was I (not) called: a member reads their own lines, an admin anyone’s; the newest 200.',
      params: UserIdParams,
      response: { 200: UserDecisions },
    }),
    async (request) => {
      const { orgId, timezone } = request.auth;
      const person = await findUserOrThrow(app.db, orgId, request.params.user_id);
      const [lines, contacts] = await Promise.all([
        listUserDecisionLines(app.db, orgId, person.id, 200),
        listUserContacts(app.db, orgId, person.id, 200),
      ]);
      const me = { id: person.id, name: fullName(person) };
      return {
        lines: lines.map(({ id: _id, inputs, at, ...line }) => ({
          ...line,
          at: utcToLocal(at, timezone),
          inputs: line.kind === 'start' ? inputsOf(inputs, person.id) : null,
        })),
        contacts: contacts.map((c) => ({ ...c, user: me, at: utcToLocal(c.at, timezone) })),
      };
    },
  );

  app.get(
    '/callbacks/:id/replay',
    route('replayCallback', "Orders a callback's list again from its stored inputs and from today's (extension)", {
      ...EXTENSION,
      description:
        'Writes nothing. `identical` is false when the stored order, its replay from the stored inputs and ' +
        'rules, or the order from the inputs as the database holds them now differ; `differences` says how.',
      params: IdParams,
      response: { 200: ReplayResult },
    }),
    async (request) => replayCallback(app.db, request.auth.orgId, request.auth.timezone, request.params.id),
  );
};

export default routes;
