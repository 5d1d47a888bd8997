import { call, client, queryOf } from '../../api';
import { addDays, monthRange, today } from '../../dates';
import type { TimeOffImpact, TimeOffPage } from '../../types';
import { PENDING } from './shared';

/** A pending request with what a decision needs: its whole span, the balance, who else is off, the staffing effect. */
type ListedEntry = TimeOffPage['items'][number];

export interface QueueItem {
  entry: ListedEntry;
  start: string;
  end: string;
  /** hours the request charges (the sum of its segments' `length`) */
  hours: number;
  /** the requester's balance for the type; null when they have no bank for it */
  balance: number | null;
  others: Array<{ name: string; type: string; start: string; end: string; pending: boolean }>;
  impact: TimeOffImpact;
}

/** Every listed entry (pending and approved) from the start of this month on, one month per page as the API pages. */
async function loadListing(start: string): Promise<ListedEntry[]> {
  const query = { start: `${start} 00:00:00`, end: `${addDays(start, 365)} 00:00:00` };
  let page: TimeOffPage = await call(client.GET('/v1/time_offs', { params: { query } }));
  const entries = [...page.items];
  while (page.metadata.links.next) {
    const next = queryOf(page.metadata.links.next) as typeof query;
    page = await call(client.GET('/v1/time_offs', { params: { query: next } }));
    entries.push(...page.items);
  }
  return entries;
}

/**
 * The pending requests, each with its requester's balance (GET /users/{id}/timeoff/accrual/bank),
 * the others off in its span (the same listing) and the engine's approval impact
 * (GET /time_offs/{id}/impact).
 */
export async function loadPendingQueue(): Promise<QueueItem[]> {
  const entries = await loadListing(monthRange(today()).start);
  const byId = new Map<string, ListedEntry[]>();
  for (const entry of entries) byId.set(String(entry.id), [...(byId.get(String(entry.id)) ?? []), entry]);
  const pending = [...byId.values()].filter((segments) => Number(segments[0]!.status) === PENDING);
  const requesters = [...new Set(pending.map((segments) => segments[0]!.user.id))];
  const [impacts, banks] = await Promise.all([
    Promise.all(
      pending.map((segments) =>
        call(client.GET('/v1/time_offs/{id}/impact', { params: { path: { id: Number(segments[0]!.id) } } })),
      ),
    ),
    Promise.all(
      requesters.map((id) =>
        call(client.GET('/v1/users/{user_id}/timeoff/accrual/bank', { params: { path: { user_id: Number(id) } } })),
      ),
    ),
  ]);
  const bankOf = new Map(requesters.map((id, index) => [id, banks[index]!]));
  return pending.map((segments, index) => {
    const entry = segments[0]!;
    const start = segments.reduce((min, s) => (s.start < min ? s.start : min), entry.start);
    const end = segments.reduce((max, s) => (s.end > max ? s.end : max), entry.end);
    const balance = bankOf
      .get(entry.user.id)
      ?.find((b) => String(b.time_off_type.id) === String(entry.time_off_type.id));
    const others = entries
      .filter((other) => other.user.id !== entry.user.id && other.start < end && other.end > start)
      .map((other) => ({
        name: other.user.name,
        type: other.time_off_type.name,
        start: other.start,
        end: other.end,
        pending: Number(other.status) === PENDING,
      }));
    return {
      entry,
      start,
      end,
      hours: segments.reduce((sum, s) => sum + s.length, 0),
      balance: balance ? balance.hours : null,
      others,
      impact: impacts[index]!,
    };
  });
}
