import { Type, type Static } from '@sinclair/typebox';
import { DateStr, NullableInput, SuccessWith } from '../../core/schemas.js';

export const PayrollCloseResponse = Type.Object({
  closed_through: Type.Union([DateStr, Type.Null()], {
    description: 'the last date of the last closed payroll period; null: no period is closed',
  }),
});
export type PayrollCloseResponse = Static<typeof PayrollCloseResponse>;

export const ChangePayrollCloseBody = Type.Object({
  closed_through: Type.Optional(NullableInput(DateStr)),
});
export type ChangePayrollCloseBody = Static<typeof ChangePayrollCloseBody>;

export const PayrollCloseWriteResponse = SuccessWith({ payroll_close: PayrollCloseResponse });
