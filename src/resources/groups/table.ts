import type { Generated, Selectable } from 'kysely';

export interface UserGroupTable {
  id: Generated<number>;
  organization_id: number;
  name: string;
  created_at: string;
}

export interface UserGroupMemberTable {
  id: Generated<number>;
  organization_id: number;
  user_id: number;
  group_id: number;
}

export type UserGroupRow = Selectable<UserGroupTable>;

declare module '../../core/db/types.js' {
  interface Database {
    user_group: UserGroupTable;
    user_group_member: UserGroupMemberTable;
  }
}
