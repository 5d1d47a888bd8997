import type { Generated, Selectable } from 'kysely';

export interface AnnouncementTable {
  id: Generated<number>;
  organization_id: number;
  title: string | null;
  /** Sanitized HTML. */
  body: string;
  /** The author; null when the API client wrote it without naming a user. */
  user_id: number | null;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

export type AnnouncementRow = Selectable<AnnouncementTable>;

declare module '../../core/db/types.js' {
  interface Database {
    announcement: AnnouncementTable;
  }
}
