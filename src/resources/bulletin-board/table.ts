import type { Generated, Selectable } from 'kysely';

/** One row per organization: the current board. */
export interface BulletinBoardTable {
  id: Generated<number>;
  organization_id: number;
  /** Sanitized HTML. */
  content: string;
  last_updated_by: number;
  /** UTC instant */
  last_updated_at: string;
}

/** The editing lease: while unexpired, only its holder may write the board. One row per organization. */
export interface BulletinBoardLockTable {
  id: Generated<number>;
  organization_id: number;
  lock_id: string;
  admin_id: number;
  /** UTC instant */
  expires_at: string;
  created_at: string;
}

export type BulletinBoardRow = Selectable<BulletinBoardTable>;
export type BulletinBoardLockRow = Selectable<BulletinBoardLockTable>;

declare module '../../core/db/types.js' {
  interface Database {
    bulletin_board: BulletinBoardTable;
    bulletin_board_lock: BulletinBoardLockTable;
  }
}
