import { Type, type Static } from '@sinclair/typebox';
import {
  Id,
  LocalDateTime,
  LongText,
  Nullable,
  NullableInput,
  UserRef,
  UserRefStrId,
  SuccessWith,
  LinkRef,
  NullableString,
} from '../../core/schemas.js';
import { OverrideReason } from '../fatigue-rules/schemas.js';
import { ForShift } from '../time-offs/expected-shift.js';

export const TRADE_ACTIONS = ['accept', 'decline', 'approve', 'deny', 'cancel', 'edit'] as const;
export type TradeAction = (typeof TRADE_ACTIONS)[number];

export const CreateTradeBody = Type.Object({
  requesting_user: Id,
  start: LocalDateTime,
  end: LocalDateTime,
  approving_user_id: Id,
  accepting_user_id: Type.Optional(NullableInput(Id)),
  swap_start: Type.Optional(NullableInput(LocalDateTime)),
  swap_end: Type.Optional(NullableInput(LocalDateTime)),
  offered_user_ids: Type.Optional(
    Type.Array(Id, { maxItems: 500, description: 'extension: users the trade is offered to' }),
  ),
  notes: Type.Optional(NullableInput(LongText({ maxLength: 2000 }))),
  approve: Type.Optional(
    Type.Boolean({
      description:
        'extension: the approving user approves the trade in the same request (with accepting_user_id it is ' +
        'filled: the work moves); if approving fails, nothing is written, not even the trade',
    }),
  ),
  override_reason: OverrideReason,
  for_shift: Type.Optional(ForShift),
});
export type CreateTradeBody = Static<typeof CreateTradeBody>;
/** One trade, or several as the sample body writes them (an array of trades): all are requested or none. */
export const CreateTradesBody = Type.Union([
  CreateTradeBody,
  Type.Array(CreateTradeBody, { minItems: 1, maxItems: 50 }),
]);

export const TradeActionBody = Type.Object({
  action: Type.Union(TRADE_ACTIONS.map((a) => Type.Literal(a))),
  user_id: Type.Optional(Id),
  admin_id: Type.Optional(Id),
  start: Type.Optional(Type.String({ ...LocalDateTime, description: 'edit (extension): the new start' })),
  end: Type.Optional(Type.String({ ...LocalDateTime, description: 'edit (extension): the new end' })),
  swap_start: Type.Optional(Type.String({ ...LocalDateTime, description: 'edit (extension): the new swap start' })),
  swap_end: Type.Optional(Type.String({ ...LocalDateTime, description: 'edit (extension): the new swap end' })),
  notes: Type.Optional(NullableInput(LongText())),
  override_reason: OverrideReason,
});
export type TradeActionBody = Static<typeof TradeActionBody>;

export const DeleteTradeQuery = Type.Object({ admin_id: Type.Optional(Id) });

export const ListTradesQuery = Type.Object({
  start: Type.Optional(LocalDateTime),
  end: Type.Optional(LocalDateTime),
  user_id: Type.Optional(Id),
});

export const TradeResponse = Type.Object({
  id: Type.String(),
  requesting_user: UserRefStrId,
  request_date: Type.String(),
  start: Type.String(),
  end: Type.String(),
  swap_start: NullableString(),
  swap_end: NullableString(),
  status: Type.String({ description: 'pending, accepted, approved, filled, cancelled, denied or expired' }),
});
export type TradeResponse = Static<typeof TradeResponse>;

export const TradeDetailResponse = Type.Object({
  ...TradeResponse.properties,
  accepting_user: Nullable(UserRefStrId),
  approving_user: Nullable(UserRefStrId),
  approved_by: Nullable(UserRefStrId),
  notes: NullableString(),
});
export type TradeDetailResponse = Static<typeof TradeDetailResponse>;

export const TradeWriteResponse = SuccessWith({
  id: Type.Integer(),
  trade_status: Type.String(),
  ids: Type.Optional(
    Type.Array(Type.Integer(), { description: 'extension: every trade requested, when the body was an array' }),
  ),
});

export const TradeUserResponse = Type.Object({
  id: Type.String({ description: 'the user id' }),
  user: UserRefStrId,
  status: Type.String({ description: 'offered, accepted or declined' }),
  offered_at: Type.String(),
  responded_at: NullableString(),
});

export const ScheduleTrade = Type.Object({
  id: Type.Integer(),
  href: Type.String(),
  start: Type.String(),
  end: Type.String(),
  requesting_user: LinkRef,
  accepting_user: LinkRef,
  admin: Nullable(LinkRef),
});
export type ScheduleTrade = Static<typeof ScheduleTrade>;

export const TradeBalanceResponse = Type.Array(
  Type.Object({
    user: UserRef,
    user_owes: Type.Number({ description: 'hours the user owes this counterpart, net of what was paid back' }),
    owes_user: Type.Number({ description: 'hours this counterpart owes the user, net of what was paid back' }),
    worked_for_user: Type.Number({ description: "hours the counterpart worked on the user's trades" }),
    user_worked: Type.Number({ description: "hours the user worked on the counterpart's trades" }),
    trades: Type.Array(
      Type.Object({
        id: Type.Integer(),
        href: Type.String(),
        start: Type.String(),
        end: Type.String(),
        hours: Type.Number(),
        worked_by: UserRef,
        worked_for: UserRef,
      }),
      { description: 'the filled trades behind the hours, by start (a swap gives two rows)' },
    ),
  }),
);
export type TradeBalanceResponse = Static<typeof TradeBalanceResponse>;

export const TradeLimitsResponse = Type.Object({
  trades_per_period: Type.Union([Type.Integer(), Type.Null()], {
    description: 'live trades per person per work period; null: no limit',
  }),
  owed_hours: Type.Union([Type.Number(), Type.Null()], {
    description: 'hours a person may owe on trades, net of paybacks; null: no limit',
  }),
  period: Type.Object(
    { days: Type.Integer(), start: Type.String() },
    { description: 'the work period trades are counted over (GET /work_period)' },
  ),
});
export type TradeLimitsResponse = Static<typeof TradeLimitsResponse>;

export const ChangeTradeLimitsBody = Type.Object({
  trades_per_period: Type.Optional(
    NullableInput(Type.Integer({ minimum: 0, maximum: 1000, description: 'null removes the limit' })),
  ),
  owed_hours: Type.Optional(
    NullableInput(Type.Number({ minimum: 0, maximum: 100_000, description: 'null removes the limit' })),
  ),
});
export type ChangeTradeLimitsBody = Static<typeof ChangeTradeLimitsBody>;

export const TradeLimitsWriteResponse = SuccessWith({ trade_limits: TradeLimitsResponse });
