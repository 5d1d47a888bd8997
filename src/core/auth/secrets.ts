import { createHmac, randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { hash as argon2Hash, parseOptions, verify as argon2Verify } from '@node-rs/argon2';

/** 256-bit random value, URL-safe. */
export function randomSecret(prefix = ''): string {
  return prefix + randomBytes(32).toString('base64url');
}

/** Keyed hash (HMAC-SHA256) of a client secret or access token: what the database stores. */
export function keyedHash(key: Buffer, value: string): string {
  return createHmac('sha256', key).update(value, 'utf8').digest('hex');
}

export function constantTimeEqualHex(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * User passwords: Argon2id with OWASP's parameters (19 MiB of memory, 2 passes, 1 lane; about
 * 30 ms of CPU), stored in the PHC string format (`$argon2id$v=19$m=19456,t=2,p=1$salt$hash`).
 */
export const PASSWORD_HASH = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return argon2Hash(password, PASSWORD_HASH);
}

/** Before Argon2id: `scrypt$N$r$p$salt$hash` (N=16384, r=8, p=1). Still verified, then replaced at sign-in. */
const LEGACY_SCRYPT = /^scrypt\$(\d+)\$(\d+)\$(\d+)\$([\w-]+)\$([\w-]+)$/;

function scryptAsync(password: string, salt: Buffer, length: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password, salt, length, options, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

/** Hashed once, for the same cost whether or not the user exists. */
let absentUserHash: Promise<string> | undefined;

export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const legacy = LEGACY_SCRYPT.exec(stored ?? '');
  if (legacy) {
    const [N, r, p] = [Number(legacy[1]), Number(legacy[2]), Number(legacy[3])];
    if (N > 2 ** 20 || r > 16 || p > 16) return false;
    const expected = Buffer.from(legacy[5], 'base64url');
    const options = { N, r, p, maxmem: 256 * N * r + 1024 * 1024 };
    const actual = await scryptAsync(password, Buffer.from(legacy[4], 'base64url'), expected.length, options);
    return timingSafeEqual(expected, actual);
  }
  if (stored?.startsWith('$argon2')) {
    try {
      return await argon2Verify(stored, password);
    } catch {
      return false; // a damaged hash matches nothing
    }
  }
  absentUserHash ??= hashPassword(randomSecret());
  await argon2Verify(await absentUserHash, password);
  return false;
}

/** Whether a hash that just verified was made with other than today's algorithm and parameters. */
export function passwordNeedsRehash(stored: string): boolean {
  if (!stored.startsWith('$argon2id$')) return true;
  try {
    const options = parseOptions(stored);
    return (
      options.memoryCost < PASSWORD_HASH.memoryCost ||
      options.timeCost < PASSWORD_HASH.timeCost ||
      options.parallelism !== PASSWORD_HASH.parallelism
    );
  } catch {
    return true;
  }
}
