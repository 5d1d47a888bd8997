import { Type, type Static } from '@sinclair/typebox';
import { Id } from '../../core/schemas.js';

export const AutoStartBody = Type.Object({
  enabled: Type.Boolean(),
  within_days: Type.Integer({
    minimum: 1,
    maximum: 60,
    description: 'vacancies whose occurrence starts within this many days from now get a callback',
  }),
  initiated_by: Id,
  lists: Type.Array(Type.Object({ assignment_id: Id, list_id: Id }), {
    maxItems: 500,
    description: 'the default callback list of each assignment; vacancies on other assignments are left alone',
  }),
});
export type AutoStartBody = Static<typeof AutoStartBody>;

export const AutoStartResponse = Type.Object({
  enabled: Type.Boolean(),
  within_days: Type.Integer(),
  initiated_by: Type.Union([Type.Integer(), Type.Null()]),
  lists: Type.Array(Type.Object({ assignment_id: Type.Integer(), list_id: Type.Integer() })),
});
export type AutoStartResponse = Static<typeof AutoStartResponse>;
