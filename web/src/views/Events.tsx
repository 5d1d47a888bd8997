import { call, client, type Session } from '../api';
import { ErrorBox, Loaded } from '../components';
import { span } from '../dates';
import { useAction, useLoad } from '../hooks';
import type { SignupEvent, SignupEventUser } from '../types';

async function loadEvents(): Promise<Array<SignupEvent & { users: SignupEventUser[] }>> {
  const events = await call(client.GET('/v1/signup_events'));
  return Promise.all(
    events.map(async (event) => ({
      ...event,
      users: await call(client.GET('/v1/signup_events/{id}/users', { params: { path: { id: Number(event.id) } } })),
    })),
  );
}

export function Events({ session }: { session: Session }) {
  const [value, reload] = useLoad(loadEvents, []);
  const [error, act, busy] = useAction(reload);
  const me = session.user.id;
  return (
    <section aria-labelledby="events-title">
      <h1 id="events-title">Sign-up events</h1>
      {error && <ErrorBox message={error} />}
      <Loaded value={value} what="sign-up events" retry={reload}>
        {(events) =>
          events.length === 0 ? (
            <p>No sign-up events.</p>
          ) : (
            <ul class="cards">
              {events.map((event) => {
                const signedUp = event.users.some((entry) => Number(entry.user.id) === me);
                return (
                  <li class="card" key={event.id}>
                    <p class="card-title">{event.title}</p>
                    <p>
                      {span(event.start, event.end)} · {event.users.length} of {event.employees_needed} signed up ·{' '}
                      {event.status}
                    </p>
                    {event.users.length > 0 && (
                      <p class="signed-up">Signed up: {event.users.map((entry) => entry.user.name).join(', ')}</p>
                    )}
                    {signedUp ? (
                      <button
                        type="button"
                        disabled={busy}
                        onClick={() =>
                          act(() =>
                            call(
                              client.DELETE('/v1/signup_events/{id}/users/{user_id}', {
                                params: { path: { id: Number(event.id), user_id: me } },
                              }),
                            ),
                          )
                        }
                      >
                        Withdraw from {event.title}
                      </button>
                    ) : (
                      <button
                        type="button"
                        class="primary"
                        disabled={busy || event.status !== 'active'}
                        onClick={() =>
                          act(() =>
                            call(
                              client.POST('/v1/signup_events/{id}/users', {
                                params: { path: { id: Number(event.id) } },
                                body: { user_id: me },
                              }),
                            ),
                          )
                        }
                      >
                        Sign up for {event.title}
                      </button>
                    )}
                  </li>
                );
              })}
            </ul>
          )
        }
      </Loaded>
    </section>
  );
}
