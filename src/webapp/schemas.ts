import { Type, type Static } from '@sinclair/typebox';
import { EXTENSION, Id } from '../core/schemas.js';

export const SignInBody = Type.Object({
  organization_id: Id,
  username: Type.String({ minLength: 1, maxLength: 255 }),
  password: Type.String({ minLength: 1, maxLength: 1024 }),
});
export type SignInBody = Static<typeof SignInBody>;

export const SessionResponse = Type.Object({
  user: Type.Object({
    id: Type.Integer(),
    username: Type.String(),
    name: Type.String(),
    role: Type.Union([Type.String(), Type.Null()]),
    is_admin: Type.Boolean({ description: 'acts on the whole organization (role Admin, Administrator or Scheduler)' }),
  }),
  organization: Type.Object({ id: Type.Integer(), name: Type.String(), timezone: Type.String() }),
  expires_at: Type.String({ description: 'ISO instant' }),
});
export type SessionResponse = Static<typeof SessionResponse>;

export const tags = ['Web app'];
export { EXTENSION };
