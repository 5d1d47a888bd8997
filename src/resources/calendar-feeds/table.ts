import type { Generated, Selectable } from 'kysely';

export interface CalendarFeedTable {
  id: Generated<number>;
  organization_id: number;
  /** Keyed hash (HMAC-SHA256 under the server key) of the token in the feed's URL. */
  token_hash: string;
  /** Exactly one of user_id and assignment_id is set: whose shifts the feed shows. */
  user_id: number | null;
  assignment_id: number | null;
  name: string | null;
  created_at: string;
  revoked_at: string | null;
}

export type CalendarFeedRow = Selectable<CalendarFeedTable>;

declare module '../../core/db/types.js' {
  interface Database {
    calendar_feed: CalendarFeedTable;
  }
}
