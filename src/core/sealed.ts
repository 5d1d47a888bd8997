import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';

/**
 * Secrets the server must read back (a webhook's signing key, a stored response that may hold a
 * secret shown once) are stored sealed: AES-256-GCM under a key derived from the server key
 * (CREWPLAN_SECRET_KEY or `secret.key`) for one purpose, as `v1:<iv>:<tag>:<ciphertext>` (base64).
 * A copy of the database (a backup, a dump) then holds no usable secret without the server key.
 */
export function sealingKey(secretKey: Buffer, purpose: string): Buffer {
  return createHmac('sha256', secretKey).update(purpose).digest();
}

export function seal(key: Buffer, text: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const sealed = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64'), cipher.getAuthTag().toString('base64'), sealed.toString('base64')].join(':');
}

/** The sealed text, or undefined when it does not open (another server key, or not sealed text). */
export function unseal(key: Buffer, stored: string): string | undefined {
  const [version, iv, tag, sealed] = stored.split(':');
  if (version !== 'v1' || !iv || !tag || sealed === undefined) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64'));
    decipher.setAuthTag(Buffer.from(tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(sealed, 'base64')), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}
