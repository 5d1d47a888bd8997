import { useState } from 'preact/hooks';
import { api, type Session } from '../api';
import { ErrorBox, Loaded } from '../components';
import { addDays, monthRange, span, today } from '../dates';
import { useLoad } from '../hooks';
import type { TimeOffEntry, TimeOffPage, TimeOffType } from '../types';

const PENDING = 0;

/** Every pending request from the start of this month on, one month per page as the API pages. */
async function loadPendingQueue(): Promise<TimeOffEntry[]> {
  const start = monthRange(today()).start;
  let page = await api.get<TimeOffPage>('/time_offs', { start: `${start} 00:00:00`, end: `${addDays(start, 365)} 00:00:00` });
  const entries = [...page.items];
  while (page.metadata.links.next) {
    page = await api.follow<TimeOffPage>(page.metadata.links.next);
    entries.push(...page.items);
  }
  const seen = new Set<string>();
  return entries.filter((entry) => Number(entry.status) === PENDING && !seen.has(String(entry.id)) && seen.add(String(entry.id)));
}

async function loadOwn(userId: number): Promise<TimeOffEntry[]> {
  const start = addDays(today(), -60);
  return api.get<TimeOffEntry[]>(`/users/${userId}/time_offs`, { start: `${start} 00:00:00`, end: `${addDays(today(), 365)} 23:59:59` });
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
  const decide = (entry: TimeOffEntry, decision: 'approve' | 'deny') =>
    act(() => api.post(`/time_offs/${entry.id}/${decision}`, { admin_id: session.user.id }));
  return (
    <section aria-labelledby="queue-title">
      <h2 id="queue-title">Requests waiting for a decision</h2>
      {error && <ErrorBox message={error} />}
      <Loaded value={value} what="the time off queue" retry={reload}>
        {(entries) =>
          entries.length === 0 ? (
            <p>No pending requests.</p>
          ) : (
            <ul class="cards" aria-busy={busy}>
              {entries.map((entry) => (
                <li class="card" key={entry.id}>
                  <p class="card-title">
                    {entry.user.name} · {entry.time_off_type.name}
                  </p>
                  <p>{span(entry.start, entry.end)}</p>
                  {entry.user_note && <p class="note">“{entry.user_note}”</p>}
                  <div class="buttons">
                    <button type="button" class="primary" disabled={busy} onClick={() => decide(entry, 'approve')} aria-label={`Approve ${entry.time_off_type.name} for ${entry.user.name}`}>
                      Approve
                    </button>
                    <button type="button" disabled={busy} onClick={() => decide(entry, 'deny')} aria-label={`Deny ${entry.time_off_type.name} for ${entry.user.name}`}>
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
          {types.state === 'ready' && types.data.map((type) => <option value={type.id} key={type.id}>{type.label}</option>)}
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
                    {entry.time_off_type.name} · <span class={`status-${statusName(entry.status)}`}>{statusName(entry.status)}</span>
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
      <OwnRequests session={session} />
    </div>
  );
}
