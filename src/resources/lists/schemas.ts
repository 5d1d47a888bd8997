import { Type, type Static } from '@sinclair/typebox';
import { Nullable, NullableInput, ShortText, SuccessWith } from '../../core/schemas.js';
import { LIST_ORDERINGS } from './table.js';

export const CallbackListResponse = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  max_consecutive_hours: Type.Integer(),
  weekly_limit: Type.Integer(),
  monthly_limit: Type.Integer(),
  yearly_limit: Type.Integer(),
  position: Type.Integer(),
});
export type CallbackListResponse = Static<typeof CallbackListResponse>;

/** The callback runner's settings (extension, docs/workflows.md). */
const RunnerFields = {
  contact_window_minutes: Nullable(
    Type.Integer({ description: 'extension: minutes the callback runner waits for an answer; null: answered by hand' }),
  ),
  contact_at_once: Type.Integer({
    description: 'extension: how many people the callback runner offers a callback to at the same time',
  }),
  notify_group_id: Nullable(
    Type.Integer({ description: 'extension: the group told, besides the initiating admin, how callbacks end' }),
  ),
};

export const CallbackListSingleResponse = Type.Composite([
  CallbackListResponse,
  Type.Object({ deleted: Type.Boolean(), ...RunnerFields }),
]);
export type CallbackListSingleResponse = Static<typeof CallbackListSingleResponse>;

const HourLimit = (description: string) =>
  Type.Integer({ minimum: 0, maximum: 8784, description: `${description}; 0 = no limit` });

export const CreateListBody = Type.Object({
  name: ShortText({ minLength: 1 }),
  max_consecutive_hours: Type.Optional(HourLimit('hours a user may work in a row')),
  weekly_limit: Type.Optional(HourLimit('hours per week')),
  monthly_limit: Type.Optional(HourLimit('hours per month')),
  yearly_limit: Type.Optional(HourLimit('hours per year')),
  position: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
  ordering: Type.Optional(
    Type.Union(
      LIST_ORDERINGS.map((value) => Type.Literal(value)),
      {
        description:
          'rotating (default): contacted users move to the bottom; hours: fewest charged hours first; ' +
          'seniority: fixed order',
      },
    ),
  ),
  contact_window_minutes: Type.Optional(
    NullableInput(
      Type.Integer({
        minimum: 1,
        maximum: 10_080,
        description:
          'extension: minutes the callback runner waits for each answer (1 to 10080); null (default): no ' +
          'runner, answers are recorded by hand',
      }),
    ),
  ),
  contact_at_once: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 100, description: 'extension: people offered at the same time (default 1)' }),
  ),
  notify_group_id: Type.Optional(
    NullableInput(
      Type.Integer({
        minimum: 1,
        maximum: 2_147_483_647,
        description:
          'extension: a group whose members are told, besides the initiating admin, when a callback on the list ' +
          'is filled, ends short or reaches the end of the list',
      }),
    ),
  ),
});
export type CreateListBody = Static<typeof CreateListBody>;

export const ChangeListBody = Type.Partial(CreateListBody);
export type ChangeListBody = Static<typeof ChangeListBody>;

/** Write responses of the list extensions: the envelope plus the list with its ordering method. */
export const ListWriteResponse = SuccessWith({
  id: Type.Integer(),
  list: Type.Composite([CallbackListSingleResponse, Type.Object({ ordering: Type.String() })]),
});
