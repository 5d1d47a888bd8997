import type { Generated, Selectable } from 'kysely';

export const ALERT_TYPES = ['all', 'title', 'group', 'classification', 'user'] as const;
export type AlertType = (typeof ALERT_TYPES)[number];

export interface ReadyAlertTable {
  id: Generated<number>;
  organization_id: number;
  type: AlertType;
  /** JSON array of the request's ids (list, group or user ids; role names for classification); null for all. */
  target_ids: string | null;
  body: string;
  sender_id: number;
  email: number;
  created_at: string;
}

/** The outbox of an alert: one row per recipient and channel, with its state. */
export interface ReadyAlertDeliveryTable {
  id: Generated<number>;
  organization_id: number;
  alert_id: number;
  user_id: number;
  /** `app` (recorded for the in-app feed) or `email` */
  channel: 'app' | 'email';
  address: string | null;
  /** app: recorded · email: pending → sent | failed; skipped when the user has no address */
  state: 'recorded' | 'pending' | 'sent' | 'failed' | 'skipped';
  error: string | null;
  created_at: string;
  updated_at: string;
}

export type ReadyAlertRow = Selectable<ReadyAlertTable>;
export type ReadyAlertDeliveryRow = Selectable<ReadyAlertDeliveryTable>;

declare module '../../core/db/types.js' {
  interface Database {
    ready_alert: ReadyAlertTable;
    ready_alert_delivery: ReadyAlertDeliveryTable;
  }
}
