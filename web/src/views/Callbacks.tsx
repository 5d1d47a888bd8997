import { call, client, type Session } from '../api';
import { Loaded } from '../components';
import { addDays, span, today } from '../dates';
import { useLoad } from '../hooks';
import { useChangeCount } from '../live';
import type { Callback, CallbackUser } from '../types';
import { Equalization } from './Equalization';
import { ForcedHires } from './ForcedHires';
import { ForcedList } from './ForcedList';
import { CallbackDecisions } from './CallbackDecisions';
import { CancelCallback, ContactActions } from './CallbackActions';

interface CallbackWithContacts extends Callback {
  contacts: CallbackUser[];
  /** why the runner passed someone over (admins, from the decision record): user id → reason */
  skipped: Map<string, string>;
}

async function skippedOf(id: number, admin: boolean): Promise<Map<string, string>> {
  if (!admin) return new Map();
  const record = await call(client.GET('/v1/callbacks/{id}/decisions', { params: { path: { id } } }));
  const reasons = new Map<string, string>();
  for (const decision of record.decisions)
    for (const line of decision.lines)
      if (line.verdict === 'skipped') reasons.set(String(line.user.id), line.reason ?? 'skipped');
  return reasons;
}

async function loadCallbacks(
  admin: boolean,
): Promise<{ callbacks: CallbackWithContacts[]; names: Map<string, string> }> {
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
      skipped: await skippedOf(callback.id, admin),
    })),
  );
  return { callbacks, names: new Map(users.map((user) => [String(user.user_id), user.full_name])) };
}

type TablesProps = {
  callback: CallbackWithContacts;
  names: Map<string, string>;
  session: Session;
  reload: () => void;
};

/** "Contacted": only people an offer reached (a contact time); the others as waiting or skipped, with why. */
function ContactTables({ callback, names, session, reload }: TablesProps) {
  const contacted = callback.contacts.filter((c) => c.contact_time !== null);
  const others = callback.contacts.filter((c) => c.contact_time === null);
  const actions = session.user.is_admin && callback.status === 'active';
  const nameOf = (c: CallbackUser) => names.get(c.id) ?? `user ${c.id}`;
  const act = (c: CallbackUser) =>
    actions ? (
      <td>
        <ContactActions callbackId={callback.id} contact={c} name={nameOf(c)} session={session} reload={reload} />
      </td>
    ) : null;
  return (
    <>
      {contacted.length === 0 ? (
        <p>Nobody contacted yet.</p>
      ) : (
        <table class="contacts callback-users">
          <caption>Contacted</caption>
          <thead>
            <tr>
              <th scope="col">Who</th>
              <th scope="col">Answer</th>
              <th scope="col">How</th>
              {actions && <th scope="col">Actions</th>}
            </tr>
          </thead>
          <tbody>
            {contacted.map((c) => (
              <tr key={c.id}>
                <td>{nameOf(c)}</td>
                <td>{c.status}</td>
                <td>{c.contact_method ?? '—'}</td>
                {act(c)}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {others.length > 0 && (
        <table class="contacts callback-users">
          <caption>Not contacted</caption>
          <thead>
            <tr>
              <th scope="col">Who</th>
              <th scope="col">State</th>
              {actions && <th scope="col">Actions</th>}
            </tr>
          </thead>
          <tbody>
            {others.map((c) => {
              const reason = callback.skipped.get(c.id);
              const state = c.status !== 'pending' ? c.status : reason ? `skipped: ${reason}` : 'waiting';
              return (
                <tr key={c.id}>
                  <td>{nameOf(c)}</td>
                  <td>{state}</td>
                  {act(c)}
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </>
  );
}

/** The callbacks from last week on; for admins also the latest forced hires with their order explained. */
export function Callbacks({ session }: { session: Session }) {
  const admin = session.user.is_admin;
  // read again whenever anything of the organization changes (GET /v1/changes): the runner's offers, answers
  const [changes] = useChangeCount();
  const [value, reload] = useLoad(() => loadCallbacks(admin), [admin], changes);
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
                  {admin && callback.status === 'active' && (
                    <CancelCallback id={callback.id} session={session} reload={reload} />
                  )}
                  <ContactTables callback={callback} names={names} session={session} reload={reload} />
                  <CallbackDecisions id={callback.id} session={session} />
                </li>
              ))}
            </ul>
          )
        }
      </Loaded>
      {session.user.is_admin ? <ForcedList /> : null}
      {session.user.is_admin ? <ForcedHires /> : null}
      {session.user.is_admin ? <Equalization /> : null}
    </section>
  );
}
