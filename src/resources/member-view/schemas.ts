import { Type, type Static } from '@sinclair/typebox';
import { SuccessWith } from '../../core/schemas.js';

export const MEMBER_USER_VIEWS = ['work_contact', 'all'] as const;
export type MemberUserView = (typeof MEMBER_USER_VIEWS)[number];

const UsersView = Type.Union(
  MEMBER_USER_VIEWS.map((view) => Type.Literal(view)),
  {
    description:
      'work_contact (default): names, role, avatar, employee id and work e-mail (the first e-mail) of ' +
      'coworkers; all: every field, as admins see them',
  },
);

export const MemberViewResponse = Type.Object({ users: UsersView }, { 'x-crewplan-extension': true });
export type MemberViewResponse = Static<typeof MemberViewResponse>;

export const ChangeMemberViewBody = Type.Object({ users: UsersView });
export type ChangeMemberViewBody = Static<typeof ChangeMemberViewBody>;

export const MemberViewWriteResponse = SuccessWith({ member_view: MemberViewResponse });
