import { useEffect, useRef, useState } from 'preact/hooks';
import { api, type Session } from '../api';
import { ErrorBox, Loaded } from '../components';
import { addDays, monthRange, span, today } from '../dates';
import { useLoad } from '../hooks';
import type { AccrualBank, TimeOffEntry, TimeOffImpact, TimeOffPage, TimeOffType } from '../types';

const PENDING = 0;

/** A pending request with what a decision needs: its whole span, the balance, who else is off, the staffing effect. */
type ListedEntry = TimeOffPage['items'][number];

interface QueueItem {
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
  let page = await api.get<TimeOffPage>('/time_offs', {
    start: `${start} 00:00:00`,
    end: `${addDays(start, 365)} 00:00:00`,
  });
  const entries = [...page.items];
  while (page.metadata.links.next) {
    page = await api.follow<TimeOffPage>(page.metadata.links.next);
    entries.push(...page.items);
  }
  return entries;
}

/**
 * The pending requests, each with its requester's balance (GET /users/{id}/timeoff/accrual/bank),
 * the others off in its span (the same listing) and the engine's approval impact
 * (GET /time_offs/{id}/impact).
 */
async function loadPendingQueue(): Promise<QueueItem[]> {
  const entries = await loadListing(monthRange(today()).start);
  const byId = new Map<string, ListedEntry[]>();
  for (const entry of entries) byId.set(String(entry.id), [...(byId.get(String(entry.id)) ?? []), entry]);
  const pending = [...byId.values()].filter((segments) => Number(segments[0]!.status) === PENDING);
  const requesters = [...new Set(pending.map((segments) => segments[0]!.user.id))];
  const [impacts, banks] = await Promise.all([
    Promise.all(pending.map((segments) => api.get<TimeOffImpact>(`/time_offs/${segments[0]!.id}/impact`))),
    Promise.all(requesters.map((id) => api.get<AccrualBank>(`/users/${id}/timeoff/accrual/bank`))),
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

const hours = (n: number) => `${Math.round(n * 100) / 100} h`;
const requestDate = (iso: string | null) =>
  iso
    ? new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' }).format(new Date(iso))
    : 'unknown';

/** The engine's verdict on approving: each occurrence it changes, `n of m` before and after, seats and qualifiers short. */
function Impact({ impact }: { impact: TimeOffImpact }) {
  if (impact.assignments.length === 0) return <p class="impact">Staffing: no change (not on duty those days).</p>;
  const short = impact.seats_opened > 0 || impact.new_vacancies > 0;
  return (
    <div class={`impact${short ? ' short' : ''}`}>
      <p>
        Staffing if approved:{' '}
        {short
          ? `opens ${impact.seats_opened} seat${impact.seats_opened === 1 ? '' : 's'}, ${impact.new_vacancies} new ${impact.new_vacancies === 1 ? 'vacancy' : 'vacancies'}`
          : 'stays at minimum'}
      </p>
      <ul>
        {impact.assignments.map((change) => (
          <li key={`${change.assignment.id}-${change.date}`}>
            {change.assignment.name} · {change.date}: {change.before.scheduled} → {change.after.scheduled} of{' '}
            {change.after.needed}
            {change.after.open > 0 && <strong> · {change.after.open} open</strong>}
            {change.after.qualifier_shortfalls.map((q) => (
              <strong key={q.id}>
                {' '}
                · {q.shortcode} {q.have} of {q.needed}
              </strong>
            ))}
          </li>
        ))}
      </ul>
    </div>
  );
}

async function loadOwn(userId: number): Promise<TimeOffEntry[]> {
  const start = addDays(today(), -60);
  return api.get<TimeOffEntry[]>(`/users/${userId}/time_offs`, {
    start: `${start} 00:00:00`,
    end: `${addDays(today(), 365)} 23:59:59`,
  });
}

function statusName(status: number | string): string {
  return ['pending', 'approved', 'denied'][Number(status)] ?? String(status);
}

function useAction(after: () => void): [string | null, (run: () => Promise<unknown>) => Promise<void>, boolean] {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const act = async (run: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    try {
      await run();
      after();
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return [error, act, busy];
}

function AdminQueue({ session }: { session: Session }) {
  const [value, reload] = useLoad(loadPendingQueue, []);
  const [error, act, busy] = useAction(reload);
  const [decided, setDecided] = useState<string | null>(null);
  // the card decided on leaves the queue: keyboard focus goes on to the card in its place (its
  // Approve button), or to the queue's heading when it was the last
  const next = useRef<number | null>(null);
  const list = useRef<HTMLUListElement>(null);
  useEffect(() => {
    if (value.state !== 'ready' || next.current === null) return;
    const buttons = list.current?.querySelectorAll<HTMLButtonElement>('li.card button.primary') ?? [];
    const target = buttons[Math.min(next.current, buttons.length - 1)];
    (target ?? document.getElementById('queue-title'))?.focus();
    next.current = null;
  }, [value]);
  const decide = (entry: TimeOffEntry, decision: 'approve' | 'deny', index: number) => {
    if (busy) return;
    setDecided(null);
    void act(async () => {
      await api.post(`/time_offs/${entry.id}/${decision}`, { admin_id: session.user.id });
      next.current = index;
      setDecided(
        `${decision === 'approve' ? 'Approved' : 'Denied'}: ${entry.time_off_type.name} for ${entry.user.name}.`,
      );
    });
  };
  return (
    <section aria-labelledby="queue-title">
      <h2 id="queue-title" tabIndex={-1}>
        Requests waiting for a decision
      </h2>
      <div aria-live="polite">
        {decided && (
          <p class="done" role="status">
            {decided}
          </p>
        )}
      </div>
      {error && <ErrorBox message={error} />}
      <Loaded value={value} what="the time off queue" retry={reload}>
        {(entries) =>
          entries.length === 0 ? (
            <p>No pending requests.</p>
          ) : (
            <ul class="cards queue" aria-busy={busy} ref={list}>
              {entries.map(({ entry, start, end, hours: requested, balance, others, impact }, index) => (
                <li class="card" key={entry.id} data-time-off={entry.id}>
                  <p class="card-title">
                    {entry.user.name} · {entry.time_off_type.name}
                  </p>
                  <p>
                    {span(start, end)} · {hours(requested)}
                  </p>
                  <p class="requested">Requested {requestDate(entry.request_date)}</p>
                  <p class="balance">
                    {balance === null
                      ? `No ${entry.time_off_type.name} bank`
                      : `${entry.time_off_type.name} balance: ${hours(balance)}`}
                  </p>
                  {entry.user_note && <p class="note">“{entry.user_note}”</p>}
                  <p class="others">
                    {others.length === 0
                      ? 'Nobody else is off then.'
                      : `Also off: ${others.map((o) => `${o.name} (${o.type}${o.pending ? ', pending' : ''}, ${span(o.start, o.end)})`).join('; ')}`}
                  </p>
                  <Impact impact={impact} />
                  <div class="buttons">
                    <button
                      type="button"
                      class="primary"
                      aria-disabled={busy}
                      onClick={() => decide(entry, 'approve', index)}
                      aria-label={`Approve ${entry.time_off_type.name} for ${entry.user.name}`}
                    >
                      Approve
                    </button>
                    <button
                      type="button"
                      aria-disabled={busy}
                      onClick={() => decide(entry, 'deny', index)}
                      aria-label={`Deny ${entry.time_off_type.name} for ${entry.user.name}`}
                    >
                      Deny
                    </button>
                  </div>
                </li>
              ))}
            </ul>
          )
        }
      </Loaded>
    </section>
  );
}

function RequestForm({ session, onDone }: { session: Session; onDone: () => void }) {
  const [types] = useLoad(() => api.get<TimeOffType[]>('/time_off_types'), []);
  const [error, act, busy] = useAction(onDone);
  const submit = (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const at = (name: string) => `${String(form.get(name)).replace('T', ' ')}:00`;
    void act(() =>
      api.post(`/users/${session.user.id}/time_offs`, {
        time_off_type_id: Number(form.get('type')),
        start_date: at('start'),
        end_date: at('end'),
        user_note: String(form.get('note') ?? '') || undefined,
      }),
    );
  };
  return (
    <form class="card form" onSubmit={submit} aria-labelledby="request-title">
      <h2 id="request-title">Request time off</h2>
      {error && <ErrorBox message={error} />}
      <label>
        Type
        <select name="type" required>
          {types.state === 'ready' &&
            types.data.map((type) => (
              <option value={type.id} key={type.id}>
                {type.label}
              </option>
            ))}
        </select>
      </label>
      <label>
        From <input type="datetime-local" name="start" required />
      </label>
      <label>
        To <input type="datetime-local" name="end" required />
      </label>
      <label>
        Note <input type="text" name="note" maxLength={1000} />
      </label>
      <button type="submit" class="primary" disabled={busy}>
        Send request
      </button>
    </form>
  );
}

/** The signed-in user's leave balances (GET /users/{me}/timeoff/accrual/bank). */
function MyBalances({ session }: { session: Session }) {
  const [value, reload] = useLoad(
    () => api.get<AccrualBank>(`/users/${session.user.id}/timeoff/accrual/bank`),
    [session.user.id],
  );
  return (
    <section aria-labelledby="balances-title">
      <h2 id="balances-title">My balances</h2>
      <Loaded value={value} what="your balances" retry={reload}>
        {(banks) =>
          banks.length === 0 ? (
            <p>No leave banks.</p>
          ) : (
            <ul class="balances">
              {banks.map((bank) => (
                <li key={bank.time_off_type.id}>
                  <span class="balance-type">{bank.time_off_type.name}</span> <strong>{hours(bank.hours)}</strong>
                </li>
              ))}
            </ul>
          )
        }
      </Loaded>
    </section>
  );
}

function OwnRequests({ session }: { session: Session }) {
  const [value, reload] = useLoad(() => loadOwn(session.user.id), [session.user.id]);
  const [error, act, busy] = useAction(reload);
  return (
    <section aria-labelledby="own-title">
      <RequestForm session={session} onDone={reload} />
      <h2 id="own-title">My requests</h2>
      {error && <ErrorBox message={error} />}
      <Loaded value={value} what="your requests" retry={reload}>
        {(entries) =>
          entries.length === 0 ? (
            <p>No time off in the last two months or ahead.</p>
          ) : (
            <ul class="cards">
              {entries.map((entry) => (
                <li class="card" key={`${entry.id}-${entry.start}`}>
                  <p class="card-title">
                    {entry.time_off_type.name} ·{' '}
                    <span class={`status-${statusName(entry.status)}`}>{statusName(entry.status)}</span>
                  </p>
                  <p>{span(entry.start, entry.end)}</p>
                  {entry.user_note && <p class="note">“{entry.user_note}”</p>}
                  {Number(entry.status) === PENDING && (
                    <button type="button" disabled={busy} onClick={() => act(() => api.del(`/time_offs/${entry.id}`))}>
                      Cancel request
                    </button>
                  )}
                </li>
              ))}
            </ul>
          )
        }
      </Loaded>
    </section>
  );
}

export function TimeOff({ session }: { session: Session }) {
  return (
    <div>
      <h1>Time off</h1>
      {session.user.is_admin && <AdminQueue session={session} />}
      <MyBalances session={session} />
      <OwnRequests session={session} />
    </div>
  );
}
