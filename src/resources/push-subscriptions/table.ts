import type { Generated, Selectable } from 'kysely';

/** One board installation of a user that receives callback offers by Web Push. */
export interface PushSubscriptionTable {
  id: Generated<number>;
  organization_id: number;
  user_id: number;
  /** the push service's URL for this installation (unique per organization and user) */
  endpoint: string;
  /** the installation's public key (P-256, base64url) and auth secret, which the payload is encrypted for */
  p256dh: string;
  auth: string;
  created_at: string;
}

/** Values made once per installation (not per organization), e.g. the generated VAPID key pair. */
export interface InstallationSecretTable {
  name: string;
  value: string;
  created_at: string;
}

export type PushSubscriptionRow = Selectable<PushSubscriptionTable>;

declare module '../../core/db/types.js' {
  interface Database {
    push_subscription: PushSubscriptionTable;
    installation_secret: InstallationSecretTable;
  }
}
