import { call, client } from '../api';
import { Loaded } from '../components';
import { span } from '../dates';
import { useLoad } from '../hooks';

async function loadForcedHires() {
  const [page, assignments] = await Promise.all([
    call(client.GET('/v1/forced_hires', { params: { query: { limit: 20 } } })),
    call(client.GET('/v1/assignments')),
  ]);
  return { hires: page.data, names: new Map(assignments.map((a) => [Number(a.id), a.name])) };
}

/** The latest forced hires (admins): who was forced where, and the order explained member by member. */
export function ForcedHires() {
  const [value, reload] = useLoad(loadForcedHires, []);
  return (
    <section aria-labelledby="forced-title">
      <h2 id="forced-title">Forced hires</h2>
      <Loaded value={value} what="forced hires" retry={reload}>
        {({ hires, names }) =>
          hires.length === 0 ? (
            <p>No forced hires yet.</p>
          ) : (
            <ul class="cards">
              {hires.map((hire) => (
                <li class="card" key={hire.id}>
                  <p class="card-title">
                    {names.get(hire.assignment_id) ?? `Assignment ${hire.assignment_id}`} · {hire.status} ·{' '}
                    {hire.trigger === 'auto' ? 'started by itself' : 'ordered by an admin'}
                  </p>
                  <p>{span(hire.start, hire.end)}</p>
                  <p>{hire.reason}</p>
                  <table class="contacts">
                    <caption>The forced list's order</caption>
                    <thead>
                      <tr>
                        <th scope="col">#</th>
                        <th scope="col">Who</th>
                        <th scope="col">Last forced</th>
                        <th scope="col">Hired</th>
                        <th scope="col">Verdict</th>
                        <th scope="col">Why</th>
                      </tr>
                    </thead>
                    <tbody>
                      {hire.order.map((member) => (
                        <tr key={member.user_id}>
                          <td>{member.position}</td>
                          <td>{member.name}</td>
                          <td>{member.last_forced?.slice(0, 16) ?? 'never'}</td>
                          <td>{member.date_of_hire ?? '—'}</td>
                          <td>{member.verdict}</td>
                          <td>{member.reason ?? '—'}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </li>
              ))}
            </ul>
          )
        }
      </Loaded>
    </section>
  );
}
