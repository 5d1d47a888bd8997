import webpush from 'web-push';
import type { PushSettings } from '../../config.js';
import type { Db } from '../../core/db/transaction.js';
import { nowUtc } from '../../core/time.js';
import { findInstallationSecret, storeInstallationSecret } from './repository.js';

export interface VapidDetails {
  subject: string;
  publicKey: string;
  privateKey: string;
}

export const PUSH_OFF = 'No Web Push contact is configured (VAPID_SUBJECT).';

const SECRET_NAME = 'vapid_keys';
const generated = new WeakMap<object, Promise<{ publicKey: string; privateKey: string }>>();

/**
 * The VAPID details of the installation, or undefined when Web Push is off (no VAPID_SUBJECT).
 * Keys come from VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY, else from one pair generated and stored in
 * the database the first time it is needed (every process of the installation then uses it).
 */
export async function vapidDetails(db: Db, settings: PushSettings): Promise<VapidDetails | undefined> {
  if (!settings.subject) return undefined;
  if (settings.publicKey && settings.privateKey)
    return { subject: settings.subject, publicKey: settings.publicKey, privateKey: settings.privateKey };
  let keys = generated.get(db);
  if (!keys) {
    keys = (async () => {
      const stored =
        (await findInstallationSecret(db, SECRET_NAME)) ??
        (await storeInstallationSecret(db, SECRET_NAME, JSON.stringify(webpush.generateVAPIDKeys()), nowUtc()));
      return JSON.parse(stored) as { publicKey: string; privateKey: string };
    })();
    keys.catch(() => generated.delete(db));
    generated.set(db, keys);
  }
  return { subject: settings.subject, ...(await keys) };
}
