import { useState } from 'preact/hooks';
import { call, client, type Session } from '../../api';
import { ErrorBox, Loaded } from '../../components';
import { addDays, span, today } from '../../dates';
import { useLoad } from '../../hooks';
import type { TimeOffEntry } from '../../types';
import { useAction } from '../../hooks';
import { hours, PENDING } from './shared';

async function loadOwn(userId: number): Promise<TimeOffEntry[]> {
  const start = addDays(today(), -60);
  const query = { start: `${start} 00:00:00`, end: `${addDays(today(), 365)} 23:59:59` };
  return call(client.GET('/v1/users/{user_id}/time_offs', { params: { path: { user_id: userId }, query } }));
}

function statusName(status: number | string): string {
  return ['pending', 'approved', 'denied'][Number(status)] ?? String(status);
}

function RequestForm({ session, onDone }: { session: Session; onDone: () => void }) {
  const [types] = useLoad(() => call(client.GET('/v1/time_off_types')), []);
  const [error, act, busy] = useAction(onDone);
  const [wholeDays, setWholeDays] = useState(false);
  const submit = (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    // whole days go as bare dates: the API reads them as the shifts that start on those days
    const at = (name: string) =>
      wholeDays ? String(form.get(name)) : `${String(form.get(name)).replace('T', ' ')}:00`;
    void act(() =>
      call(
        client.POST('/v1/users/{user_id}/time_offs', {
          params: { path: { user_id: session.user.id } },
          body: {
            time_off_type_id: Number(form.get('type')),
            start_date: at('start'),
            end_date: at('end'),
            user_note: String(form.get('note') ?? '') || undefined,
          },
        }),
      ),
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
      <label class="check">
        <input type="checkbox" checked={wholeDays} onChange={(e) => setWholeDays(e.currentTarget.checked)} /> Whole days
      </label>
      {wholeDays && (
        <p class="hint">
          Covers your shifts that start on these days, both included: a 07:00 shift of the day before is not touched,
          and a day you do not work takes nothing from your balance.
        </p>
      )}
      <label>
        From <input type={wholeDays ? 'date' : 'datetime-local'} name="start" required />
      </label>
      <label>
        To <input type={wholeDays ? 'date' : 'datetime-local'} name="end" required />
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
export function MyBalances({ session }: { session: Session }) {
  const [value, reload] = useLoad(
    () =>
      call(client.GET('/v1/users/{user_id}/timeoff/accrual/bank', { params: { path: { user_id: session.user.id } } })),
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

export function OwnRequests({ session }: { session: Session }) {
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
                    <button
                      type="button"
                      disabled={busy}
                      onClick={() =>
                        act(() =>
                          call(client.DELETE('/v1/time_offs/{id}', { params: { path: { id: Number(entry.id) } } })),
                        )
                      }
                    >
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
