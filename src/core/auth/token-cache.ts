import type { DatabaseHandle } from '../db/index.js';
import { subscribeToChanges, type ChangeSubscription } from '../db/change-listener.js';

/** What a bearer lookup tells: the token's credential and its organization as they are now. */
export interface TokenOwner {
  organization_id: number;
  credential_id: number;
  client_id: string;
  timezone: string;
  organization_name: string;
  organization_revision: number;
}

/** What is kept of a token (`expires_at` in unix seconds), with this process's write count when its lookup began. */
type TokenEntry = Pick<TokenOwner, 'organization_id' | 'credential_id' | 'client_id'> & {
  expires_at: number;
  writes: number;
};
/** What is kept of an organization, with the write count as for a token. */
type OrganizationEntry = Pick<TokenOwner, 'timezone' | 'organization_name' | 'organization_revision'> & {
  writes: number;
};

/** Raw token hashes kept at most; the map is cleared when full. */
const MAX_TOKENS = 10_000;

/**
 * PostgreSQL: bearer lookups kept in memory, so that a request with a known token makes no round
 * trip to the database. Kept only while the change listener hears the database's announcements
 * (migration 0800): a revoked credential or a deleted token drops every token kept, a change of an
 * organization (its revision, raised after every change request by any process; its name or zone)
 * or an entry appended to its log (migration 1801) drops that organization's entry. Any write by
 * this process drops them too, without waiting for the announcement. A lookup that was on its way
 * while an announcement came is not kept: it may have read what the announcement replaced. While
 * the listener is down nothing is kept or served. An announcement may still be on its way when the
 * next request comes: the lookup serves a kept entry only after {@link TokenCache.sync}, a round
 * trip that brings in all committed before it.
 *
 * SQLite keeps its lookups with a simpler check, the connection's `data_version` (sqliteOwners in
 * src/core/auth/credentials.ts).
 */
export class TokenCache {
  private readonly tokens = new Map<string, TokenEntry>();
  private readonly organizations = new Map<number, OrganizationEntry>();
  private readonly listener: ChangeSubscription;
  private listening = false;
  /** Counts announcements of each kind, and losses of the listener: a lookup compares them before and after. */
  private authEpoch = 0;
  private organizationEpoch = 0;

  constructor(private readonly handle: DatabaseHandle) {
    this.listener = subscribeToChanges(handle, {
      onListening: (listening) => {
        this.listening = listening;
        this.forgetAll();
      },
      onNotice: (notice) => {
        if (notice.kind === 'auth') {
          this.authEpoch += 1;
          this.tokens.clear();
        } else if (notice.kind === 'organization' || notice.kind === 'log') {
          this.organizationEpoch += 1;
          this.organizations.delete(notice.organizationId);
        }
      },
    });
  }

  close(): Promise<void> {
    return this.listener.close();
  }

  /** True once every change committed before the call has been heard (see ChangeListener.sync). */
  sync(): Promise<boolean> {
    return this.listener.sync();
  }

  /** The owner kept for this token hash, if every part of it still holds. */
  get(hash: string, nowSeconds: number): TokenOwner | undefined {
    if (!this.listening) return undefined;
    const writes = this.handle.stats.writes;
    const token = this.tokens.get(hash);
    if (!token || token.writes !== writes || token.expires_at <= nowSeconds) return undefined;
    const organization = this.organizations.get(token.organization_id);
    if (!organization || organization.writes !== writes) return undefined;
    return {
      organization_id: token.organization_id,
      credential_id: token.credential_id,
      client_id: token.client_id,
      timezone: organization.timezone,
      organization_name: organization.organization_name,
      organization_revision: organization.organization_revision,
    };
  }

  /** Taken before a lookup reads the database; `keep` stores what it read only if nothing changed meanwhile. */
  mark(): { auth: number; organization: number; writes: number; listening: boolean } {
    return {
      auth: this.authEpoch,
      organization: this.organizationEpoch,
      writes: this.handle.stats.writes,
      listening: this.listening,
    };
  }

  keep(mark: ReturnType<TokenCache['mark']>, hash: string, owner: TokenOwner & { expires_at: number }): void {
    if (!mark.listening || !this.listening || mark.writes !== this.handle.stats.writes) return;
    if (mark.auth === this.authEpoch) {
      if (this.tokens.size >= MAX_TOKENS) this.tokens.clear();
      const { organization_id, credential_id, client_id, expires_at } = owner;
      this.tokens.set(hash, { organization_id, credential_id, client_id, expires_at, writes: mark.writes });
    }
    if (mark.organization === this.organizationEpoch) {
      const { timezone, organization_name, organization_revision } = owner;
      this.organizations.set(owner.organization_id, {
        timezone,
        organization_name,
        organization_revision,
        writes: mark.writes,
      });
    }
  }

  private forgetAll(): void {
    this.authEpoch += 1;
    this.organizationEpoch += 1;
    this.tokens.clear();
    this.organizations.clear();
  }
}
