import { nullableText } from '../../core/schemas.js';
import { Type, type Static } from '@sinclair/typebox';
import {
  Id,
  IdName,
  Nullable,
  NullableInput,
  PathId,
  ShortText,
  SuccessWith,
  NullableString,
} from '../../core/schemas.js';
import { ACCRUAL_METHODS } from './table.js';

export const AccrualEntryStrId = Type.Object({
  time_off_type: Type.Object({ id: Type.String(), name: Type.String() }),
  accrual_type: Type.String({ description: 'readable rule, or "No automatic accrual"' }),
});
export const AccrualEntry = Type.Object({ time_off_type: IdName, accrual_type: Type.String() });

export const BankEntry = Type.Object({
  hours: Type.Number(),
  time_off_type: Type.Object({ id: Type.String(), name: Type.String() }),
});

export const BankParams = Type.Object({ user_id: PathId, id: PathId });
export const BankBody = Type.Object({
  time_off_type_id: Type.Optional(Id),
  hours: Type.Number({ minimum: -100_000, maximum: 100_000, description: 'positive adds, negative deducts' }),
  admin_id: Id,
  notes: Type.Optional(nullableText(1000, 'at most 1000 characters')),
});
export type BankBody = Static<typeof BankBody>;
export const BankWriteResponse = SuccessWith({
  id: Type.Integer({ description: 'the ledger transaction' }),
  balance: Type.Number({ description: 'the new balance of the type' }),
});

export const LedgerRow = Type.Object({
  id: Type.Integer(),
  time_off_type: IdName,
  hours: Type.Number(),
  kind: Type.String({ description: 'manual, accrual, time_off, time_off_restored or time_off_adjustment' }),
  admin_id: Nullable(Type.Integer()),
  notes: NullableString(),
  time_off_id: Nullable(Type.Integer()),
  created_at: Type.String(),
  /** a time_off_adjustment: the change that moved the charge; null otherwise */
  cause: Nullable(
    Type.Object({
      action: Type.String({ description: 'the system-log action of the change, e.g. recurring_shift.updated' }),
      log_id: Nullable(Type.Integer({ description: 'the id of that system-log entry' })),
    }),
  ),
  flagged_date: Nullable(
    Type.String({
      description:
        'a time_off_adjustment reaching into a finalized day: that day (payroll flags the adjustment); null otherwise',
    }),
  ),
});

const Method = Type.Union(
  ACCRUAL_METHODS.map((method) => Type.Literal(method)),
  {
    description:
      'none, pay_period (14 days), days (every `interval` days), week, month, year, hours_worked (every ' +
      '`interval` hours)',
  },
);
export const RuleInput = Type.Object({
  time_off_type_id: Id,
  method: Method,
  hours: Type.Optional(Type.Number({ minimum: 0, maximum: 10_000 })),
  interval: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000 })),
  max_hours: Type.Optional(NullableInput(Type.Number({ minimum: 0, maximum: 100_000 }))),
});
export type RuleInput = Static<typeof RuleInput>;

export const ProfileBody = Type.Object({
  name: ShortText({ minLength: 1 }),
  rules: Type.Optional(Type.Array(RuleInput, { maxItems: 100 })),
});
export type ProfileBody = Static<typeof ProfileBody>;
export const ProfileChangeBody = Type.Object({
  name: Type.Optional(ShortText({ minLength: 1 })),
  rules: Type.Optional(Type.Array(RuleInput, { maxItems: 100 })),
});
export type ProfileChangeBody = Static<typeof ProfileChangeBody>;

export const ProfileResponse = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  rules: Type.Array(
    Type.Object({
      time_off_type_id: Type.Integer(),
      method: Type.String(),
      hours: Type.Number(),
      interval: Type.Integer(),
      max_hours: Nullable(Type.Number()),
      accrual_type: Type.String(),
    }),
  ),
});

export const StepInput = Type.Object({ profile_id: Id, from_years: Type.Integer({ minimum: 0, maximum: 100 }) });
export type StepInput = Static<typeof StepInput>;
export const TrackBody = Type.Object({
  name: ShortText({ minLength: 1 }),
  steps: Type.Optional(Type.Array(StepInput, { maxItems: 100 })),
});
export type TrackBody = Static<typeof TrackBody>;
export const TrackChangeBody = Type.Object({
  name: Type.Optional(ShortText({ minLength: 1 })),
  steps: Type.Optional(Type.Array(StepInput, { maxItems: 100 })),
});
export type TrackChangeBody = Static<typeof TrackChangeBody>;
export const TrackResponse = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  steps: Type.Array(Type.Object({ from_years: Type.Integer(), profile_id: Type.Integer() })),
});
