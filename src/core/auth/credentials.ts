import { randomBytes } from 'node:crypto';
import type { DatabaseHandle } from '../db/index.js';
import type { Db } from '../db/transaction.js';
import { dataRevisionSql } from '../response-cache.js';
import { nowUtc } from '../time.js';
import { constantTimeEqualHex, keyedHash, randomSecret } from './secrets.js';

export interface IssuedCredential {
  organization_id: number;
  client_id: string;
  client_secret: string;
}

export async function createCredential(db: Db, key: Buffer, organizationId: number, name: string | null = null): Promise<IssuedCredential> {
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
  return db
    .selectFrom('api_credential')
    .select(['client_id', 'name', 'created_at', 'revoked_at'])
    .where('organization_id', '=', organizationId)
    .orderBy('id')
    .execute();
}

/** Revokes a credential and every token issued to it; returns false when the client id is unknown. */
export async function revokeCredential(db: Db, clientId: string): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
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
    await trx
      .deleteFrom('access_token')
      .where('organization_id', '=', credential.organization_id)
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
export async function verifyClient(db: Db, key: Buffer, clientId: string, clientSecret: string): Promise<VerifiedClient | undefined> {
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

export async function issueToken(db: Db, key: Buffer, client: VerifiedClient, ttlSeconds: number) {
  const token = randomSecret('cpt_');
  const expires = Math.floor(Date.now() / 1000) + ttlSeconds;
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

export interface TokenOwner {
  organization_id: number;
  credential_id: number;
  client_id: string;
  timezone: string;
  organization_name: string;
  organization_revision: number;
}

const TOKEN_LOOKUP_SQL = `
  select t.organization_id, t.credential_id, c.client_id, o.timezone, o.name as organization_name, $revision as organization_revision
  from access_token t
  join api_credential c on c.id = t.credential_id and c.organization_id = t.organization_id
  join organization o on o.id = t.organization_id
  where t.token_hash = $1 and t.expires_at > $2 and c.revoked_at is null`;

/**
 * Finds who owns a bearer token. Runs on every request, so it is a prepared statement on both
 * engines rather than a query compiled per call; it reads the database each time so that a
 * revocation by another process (the CLI) holds from the very next request.
 */
export function createTokenLookup(handle: DatabaseHandle, key: Buffer): (token: string) => Promise<TokenOwner | undefined> {
  const nowSeconds = () => Math.floor(Date.now() / 1000);
  const text = TOKEN_LOOKUP_SQL.replace('$revision', dataRevisionSql(handle.dialect));
  if (handle.sqlite) {
    const statement = handle.sqlite.prepare(text.replace('$1', '?').replace('$2', '?'));
    return async (token) => statement.get(keyedHash(key, token), nowSeconds()) as TokenOwner | undefined;
  }
  const pool = handle.pool!;
  return async (token) => {
    const result = await pool.query<TokenOwner>({
      name: 'crewplan_token_lookup',
      text,
      values: [keyedHash(key, token), nowSeconds()],
    });
    return result.rows[0];
  };
}
