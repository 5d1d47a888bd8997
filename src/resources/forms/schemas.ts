import { Type, type Static } from '@sinclair/typebox';
import { Id, ShortText, UserRefStrId } from '../../core/schemas.js';

export const FormField = Type.Object({
  title: ShortText({ minLength: 1 }),
  multiple: Type.Optional(Type.Boolean({ description: 'answered with `values` (several strings) instead of `value`' })),
  required: Type.Optional(Type.Boolean()),
  options: Type.Optional(
    Type.Array(ShortText(), { maxItems: 100, description: 'allowed answers; any text when absent' }),
  ),
});
export type FormField = Static<typeof FormField>;

export const CreateFormBody = Type.Object({
  title: ShortText({ minLength: 1 }),
  user_id: Type.Optional(Id),
  fields: Type.Array(FormField, { minItems: 1, maxItems: 200 }),
});
export type CreateFormBody = Static<typeof CreateFormBody>;

export const SubmissionAnswer = Type.Union([
  Type.Object({ title: Type.String(), value: Type.String({ maxLength: 65_535 }) }),
  Type.Object({ title: Type.String(), values: Type.Array(Type.String({ maxLength: 65_535 }), { maxItems: 100 }) }),
]);
export type SubmissionAnswer = Static<typeof SubmissionAnswer>;

export const SubmitFormBody = Type.Object({
  user_id: Id,
  submission: Type.Array(
    Type.Object({
      title: ShortText({ minLength: 1 }),
      value: Type.Optional(Type.String({ maxLength: 65_535 })),
      values: Type.Optional(Type.Array(Type.String({ maxLength: 65_535 }), { maxItems: 100 })),
    }),
    { maxItems: 200 },
  ),
});
export type SubmitFormBody = Static<typeof SubmitFormBody>;

export const FormListResponse = Type.Record(
  Type.String({ pattern: '^[0-9]+$' }),
  Type.Object({
    title: Type.String(),
    created_at: Type.String({ description: 'datetime' }),
    created_by: Type.String(),
  }),
);

export const SubmissionResponse = Type.Object({
  user: UserRefStrId,
  submitted_at: Type.String({ description: 'iso_datetime, offset without colon' }),
  submission: Type.Array(SubmissionAnswer),
});

export const FormResponse = Type.Object({
  id: Type.Integer(),
  title: Type.String(),
  created_at: Type.String(),
  created_by: Type.String(),
  fields: Type.Array(FormField),
});
export type FormResponse = Static<typeof FormResponse>;
