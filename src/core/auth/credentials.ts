import { deleteOrgRows, orgColumns } from '../db/org-rows.js';
import { randomBytes } from 'node:crypto';
import type { Statement } from 'better-sqlite3';
import type { DatabaseHandle } from '../db/index.js';
import { withTransaction, type Db } from '../db/transaction.js';
import DataLoader from 'dataloader';
import { LRUCache } from 'lru-cache';
import { dataRevisionSql } from '../response-cache.js';
import { TokenCache, type TokenOwner } from './token-cache.js';
import { nowUtc } from '../time.js';
import { constantTimeEqualHex, keyedHash, randomSecret } from './secrets.js';

export interface IssuedCredential {
  organization_id: number;
  client_id: string;
  client_secret: string;
}

export async function createCredential(
  db: Db,
  key: Buffer,
  organizationId: number,
  name: string | null = null,
): Promise<IssuedCredential> {
  const clientId = `cp_${randomBytes(12).toString('hex')}`;
  const clientSecret = randomSecret('cps_');
  await db
    .insertInto('api_credential')
    .values({
      organization_id: organizationId,
      client_id: clientId,
      secret_hash: keyedHash(key, clientSecret),
      name,
      created_at: nowUtc(),
      revoked_at: null,
    })
    .execute();
  return { organization_id: organizationId, client_id: clientId, client_secret: clientSecret };
}

export async function listCredentials(db: Db, organizationId: number) {
  return orgColumns(db, 'api_credential', organizationId, ['client_id', 'name', 'created_at', 'revoked_at'])
    .orderBy('id')
    .execute();
}

/** Revokes a credential and every token issued to it; returns false when the client id is unknown. */
export async function revokeCredential(db: Db, clientId: string): Promise<boolean> {
  return withTransaction(db, async (trx) => {
    const credential = await trx
      .selectFrom('api_credential')
      .select(['id', 'organization_id'])
      .where('client_id', '=', clientId)
      .executeTakeFirst();
    if (!credential) return false;
    await trx
      .updateTable('api_credential')
      .set({ revoked_at: nowUtc() })
      .where('id', '=', credential.id)
      .where('revoked_at', 'is', null)
      .execute();
    await deleteOrgRows(trx, 'access_token', credential.organization_id)
      .where('credential_id', '=', credential.id)
      .execute();
    return true;
  });
}

export interface VerifiedClient {
  credentialId: number;
  organizationId: number;
  clientId: string;
}

/** Checks a client id and secret; the secret's keyed hash is compared in constant time. */
export async function verifyClient(
  db: Db,
  key: Buffer,
  clientId: string,
  clientSecret: string,
): Promise<VerifiedClient | undefined> {
  const credential = await db
    .selectFrom('api_credential')
    .select(['id', 'organization_id', 'client_id', 'secret_hash', 'revoked_at'])
    .where('client_id', '=', clientId)
    .executeTakeFirst();
  const presented = keyedHash(key, clientSecret);
  const matches = constantTimeEqualHex(presented, credential?.secret_hash ?? '0'.repeat(64));
  if (!credential || !matches || credential.revoked_at) return undefined;
  return { credentialId: credential.id, organizationId: credential.organization_id, clientId: credential.client_id };
}

/**
 * Issues a token; the client's expired tokens go first, so the table does not grow without bound.
 * They are looked for before they are deleted: on PostgreSQL a DELETE statement announces an auth
 * change (every process drops the tokens it keeps) even when it deletes nothing.
 */
export async function issueToken(db: Db, key: Buffer, client: VerifiedClient, ttlSeconds: number) {
  const token = randomSecret('cpt_');
  const now = Math.floor(Date.now() / 1000);
  const expires = now + ttlSeconds;
  const expired = await orgColumns(db, 'access_token', client.organizationId, ['id'])
    .where('credential_id', '=', client.credentialId)
    .where('expires_at', '<=', now)
    .limit(1)
    .executeTakeFirst();
  if (expired) {
    await deleteOrgRows(db, 'access_token', client.organizationId)
      .where('credential_id', '=', client.credentialId)
      .where('expires_at', '<=', now)
      .execute();
  }
  await db
    .insertInto('access_token')
    .values({
      organization_id: client.organizationId,
      credential_id: client.credentialId,
      token_hash: keyedHash(key, token),
      expires_at: expires,
      created_at: nowUtc(),
    })
    .execute();
  return { access_token: token, token_type: 'bearer', expires, expires_in: ttlSeconds };
}

/**
 * RFC 7009 revocation: deletes the token if it was issued to this client. A token of another
 * client, an unknown or an expired one is left alone without saying so (the answer is the same).
 */
export async function revokeToken(db: Db, key: Buffer, client: VerifiedClient, token: string): Promise<void> {
  await deleteOrgRows(db, 'access_token', client.organizationId)
    .where('credential_id', '=', client.credentialId)
    .where('token_hash', '=', keyedHash(key, token))
    .execute();
}

const TOKEN_LOOKUP_SQL = `
  select t.token_hash, t.expires_at, t.organization_id, t.credential_id, c.client_id, o.timezone,
    o.name as organization_name, $revision as organization_revision
  from access_token t
  join api_credential c on c.id = t.credential_id and c.organization_id = t.organization_id
  join organization o on o.id = t.organization_id
  where t.token_hash $hashes and t.expires_at > $now and c.revoked_at is null`;

/** Raw token → keyed hash, so that a client's repeated requests skip the HMAC (least recently used dropped first). */
const HASH_CACHE_ENTRIES = 10_000;
/** Owners kept by the SQLite lookup (least recently used dropped first). */
const KEPT_OWNERS = 10_000;

type FoundOwner = TokenOwner & { token_hash: string; expires_at: number };

export interface TokenLookup {
  find(token: string): Promise<TokenOwner | undefined>;
  close(): Promise<void>;
}

/**
 * Finds who owns a bearer token, through the driver (not one of the request's counted Kysely
 * statements). Both engines keep what they found and serve it again only when nothing it rests on
 * can have changed since, checked after the request came, so a revocation by another process (the
 * CLI) holds from the very next request. The lookups asked for in one event-loop turn are answered
 * together once the turn's callbacks have run (DataLoader, its batch scheduled with `setImmediate`,
 * no cache of its own), so one check after all of them came serves them all
 * (docs/decisions/0019-token-lookup-on-sqlite.md). SQLite: the connection's `data_version` and this
 * process's write count (see sqliteOwners). PostgreSQL: the database's announcements
 * (src/core/auth/token-cache.ts), once a round trip on the listening connection has brought in
 * every announcement committed before it.
 */
export function createTokenLookup(handle: DatabaseHandle, key: Buffer): TokenLookup {
  const cache = handle.pgClientConfig ? new TokenCache(handle) : undefined;
  const loader = new DataLoader(cache ? postgresOwners(handle, cache) : sqliteOwners(handle), {
    cache: false,
    batchScheduleFn: (callback) => setImmediate(callback),
  });
  const hashes = new LRUCache<string, string>({
    max: HASH_CACHE_ENTRIES,
    memoMethod: (token) => keyedHash(key, token),
  });
  return {
    find: (token) => loader.load(hashes.memo(token)),
    close: async () => cache?.close(),
  };
}

/** The owners of a turn's token hashes, in their order. */
type FindOwners = (hashes: readonly string[]) => Promise<Array<TokenOwner | undefined>>;

/** What a lookup tells of the token's owner, without the token's own columns. */
function ownerOf({ token_hash: _hash, expires_at: _expires, ...owner }: FoundOwner): TokenOwner {
  return owner;
}

/** What the SQLite lookup keeps: the owner as read, and this process's write count before the read. */
type KeptOwner = FoundOwner & { writes: number };

/**
 * SQLite: an owner found is kept (lru-cache) and served again while the token has not expired,
 * this process has run no write statement (`stats.writes`: its own commits leave `data_version`
 * alone) and the connection's `data_version` is still the one the lookup read in the same statement
 * (`organization_revision`): it moves when any other connection commits (the CLI, another server
 * process), whatever the table. A turn's lookups share one `pragma data_version`, a read
 * transaction begun after every one of them came, so it sees every commit made before any of them.
 */
function sqliteOwners(handle: DatabaseHandle): FindOwners {
  const sqlite = handle.sqlite!;
  const text = TOKEN_LOOKUP_SQL.replace('$revision', dataRevisionSql('sqlite'))
    .replace('$hashes', '= ?')
    .replace('$now', '?');
  let lookup: Statement<[string, number], FoundOwner> | undefined;
  let dataVersion: Statement<[], number> | undefined;
  const kept = new LRUCache<string, KeptOwner>({ max: KEPT_OWNERS });
  const find = (hash: string, now: number, version: () => number) => {
    const owner = kept.get(hash);
    if (owner && owner.writes === handle.stats.writes && owner.expires_at > now) {
      if (version() === owner.organization_revision) return ownerOf(owner);
    }
    handle.stats.tokenReads += 1;
    lookup ??= sqlite.prepare<[string, number], FoundOwner>(text);
    const writes = handle.stats.writes;
    const found = lookup.get(hash, now);
    // set replaces a kept owner; delete only when there is none to keep (lru-cache's delete of its
    // last entry clears the whole cache's arrays: 2 × KEPT_OWNERS slots on every write request)
    if (found) kept.set(hash, { ...found, writes });
    else if (owner) kept.delete(hash);
    return found && ownerOf(found);
  };
  return async (hashes) => {
    const now = Math.floor(Date.now() / 1000);
    let read: number | undefined;
    const version = () => {
      dataVersion ??= sqlite.prepare<[], number>('pragma data_version').pluck();
      read ??= dataVersion.get()!;
      return read;
    };
    return hashes.map((hash) => find(hash, now, version));
  };
}

/**
 * PostgreSQL: owners kept by the token cache are served once one round trip on the listening
 * connection, shared by the turn's lookups, has brought in every announcement committed before
 * them; the others are read (a named statement) and kept unless an announcement came meanwhile.
 */
function postgresOwners(handle: DatabaseHandle, cache: TokenCache): FindOwners {
  const text = TOKEN_LOOKUP_SQL.replace('$revision', dataRevisionSql('postgres'))
    .replace('$hashes', '= $1')
    .replace('$now', '$2');
  return async (hashes) => {
    const now = Math.floor(Date.now() / 1000);
    const synced = hashes.some((hash) => cache.get(hash, now)) && (await cache.sync());
    return Promise.all(
      hashes.map(async (hash) => {
        const kept = synced ? cache.get(hash, now) : undefined;
        if (kept) return kept;
        const mark = cache.mark();
        handle.stats.tokenReads += 1;
        const result = await handle.pool!.query<FoundOwner>({
          name: 'crewplan_token_lookup',
          text,
          values: [hash, now],
        });
        const found = result.rows[0];
        if (!found) return undefined;
        const owner = ownerOf(found);
        cache.keep(mark, hash, { ...owner, expires_at: found.expires_at });
        return owner;
      }),
    );
  };
}
