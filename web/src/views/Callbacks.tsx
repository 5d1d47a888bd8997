import { call, client, type Session } from '../api';
import { Loaded } from '../components';
import { addDays, span, today } from '../dates';
import { useLoad } from '../hooks';
import type { Callback, CallbackUser } from '../types';
import { ForcedHires } from './ForcedHires';
import { CallbackDecisions } from './CallbackDecisions';

interface CallbackWithContacts extends Callback {
  contacts: CallbackUser[];
}

async function loadCallbacks(): Promise<{ callbacks: CallbackWithContacts[]; names: Map<string, string> }> {
  const [page, users] = await Promise.all([
    call(
      client.GET('/v1/callbacks', {
        params: { query: { start: `${addDays(today(), -7)} 00:00:00`, end: `${addDays(today(), 90)} 23:59:59` } },
      }),
    ),
    call(client.GET('/v1/users')),
  ]);
  const callbacks = await Promise.all(
    page.data.map(async (callback) => ({
      ...callback,
      contacts: await call(client.GET('/v1/callbacks/{id}/users', { params: { path: { id: callback.id } } })),
    })),
  );
  return { callbacks, names: new Map(users.map((user) => [String(user.user_id), user.full_name])) };
}

/** The callbacks from last week on; for admins also the latest forced hires with their order explained. */
export function Callbacks({ session }: { session: Session }) {
  const [value, reload] = useLoad(loadCallbacks, []);
  return (
    <section aria-labelledby="callbacks-title">
      <h1 id="callbacks-title">Callbacks</h1>
      <Loaded value={value} what="callbacks" retry={reload}>
        {({ callbacks, names }) =>
          callbacks.length === 0 ? (
            <p>No callbacks from last week on.</p>
          ) : (
            <ul class="cards">
              {callbacks.map((callback) => (
                <li class="card" key={callback.id}>
                  <p class="card-title">
                    {callback.title.name} · {callback.status}
                  </p>
                  <p>
                    {span(callback.start, callback.end)} · {callback.positions_to_fill} to fill · started by{' '}
                    {callback.initiated_by.name}
                  </p>
                  {callback.contacts.length === 0 ? (
                    <p>Nobody contacted yet.</p>
                  ) : (
                    <table class="contacts">
                      <caption>Contacted</caption>
                      <thead>
                        <tr>
                          <th scope="col">Who</th>
                          <th scope="col">Answer</th>
                          <th scope="col">How</th>
                        </tr>
                      </thead>
                      <tbody>
                        {callback.contacts.map((contact) => (
                          <tr key={contact.id}>
                            <td>{names.get(contact.id) ?? `user ${contact.id}`}</td>
                            <td>{contact.status}</td>
                            <td>{contact.contact_method ?? '—'}</td>
                          </tr>
                        ))}
                      </tbody>
                    </table>
                  )}
                  <CallbackDecisions id={callback.id} session={session} />
                </li>
              ))}
            </ul>
          )
        }
      </Loaded>
      {session.user.is_admin ? <ForcedHires /> : null}
    </section>
  );
}
