import { call, client } from '../api';
import { Loaded } from '../components';
import { useLoad } from '../hooks';
import type { ForcedList as ForcedListData } from '../types';
import { ForcedListForm } from './ForcedListForm';

type Named = ForcedListData & { label: string };

/**
 * Every group's forced list that covers assignments (GET /groups, then GET /groups/{id}/forced_list),
 * and the people a forced hire may be made in the name of (GET /users).
 */
async function loadForcedLists(): Promise<{ lists: Named[]; people: Array<{ id: number; name: string }> }> {
  const [groups, users] = await Promise.all([call(client.GET('/v1/groups')), call(client.GET('/v1/users'))]);
  const lists = await Promise.all(
    groups.map(async (group) => ({
      ...(await call(client.GET('/v1/groups/{id}/forced_list', { params: { path: { id: Number(group.id) } } }))),
      label: group.label,
    })),
  );
  const people = users.map((u) => ({ id: Number(u.user_id), name: u.full_name }));
  return { lists: lists.filter((list) => list.assignment_ids.length > 0), people };
}

/** The one forced next: the first member of the order outside every buffer now. */
const nextForced = (list: ForcedListData) => list.members.find((m) => m.buffer === null);

/**
 * The forced lists' order now (admins, docs/contract-rules.md "Forced hire"): never forced first,
 * then least recently forced, then seniority; a member inside a buffer is set apart with its
 * reason, and the first outside every buffer is named as the next to be forced. Each list's
 * settings (buffers, forcing by itself) are edited under it (ForcedListForm).
 */
export function ForcedList() {
  const [value, reload] = useLoad(loadForcedLists, []);
  return (
    <section aria-labelledby="forced-list-title">
      <h2 id="forced-list-title">Forced list order</h2>
      <Loaded value={value} what="the forced lists" retry={reload}>
        {({ lists, people }) =>
          lists.length === 0 ? (
            <p>No forced list covers an assignment yet.</p>
          ) : (
            <ul class="cards">
              {lists.map((list) => {
                const next = nextForced(list);
                return (
                  <li class="card forced-list" key={list.group_id} data-group={list.group_id}>
                    <p class="card-title">{list.label}</p>
                    <p class="next-forced">
                      {next ? `Next to be forced: ${next.name}` : 'Nobody can be forced now: everyone is in a buffer.'}
                    </p>
                    {/* biome-ignore lint/a11y/noNoninteractiveTabindex: focused to scroll it on a phone */}
                    <section class="table-scroll" tabIndex={0} aria-label={`${list.label}: the forced order`}>
                      <table class="contacts">
                        <caption>{list.label}: who is forced first</caption>
                        <thead>
                          <tr>
                            <th scope="col">#</th>
                            <th scope="col">Who</th>
                            <th scope="col">Last forced</th>
                            <th scope="col">Hired</th>
                            <th scope="col">Now</th>
                          </tr>
                        </thead>
                        <tbody>
                          {list.members.map((member) => (
                            <tr key={member.user_id} data-user={member.user_id} class={member.buffer ? 'buffered' : ''}>
                              <td>{member.position}</td>
                              <td>{member.name}</td>
                              <td>{member.last_forced?.slice(0, 16) ?? 'never'}</td>
                              <td>{member.date_of_hire ?? '—'}</td>
                              <td>
                                {member.buffer
                                  ? `Skipped: ${member.buffer}`
                                  : member === next
                                    ? 'Next'
                                    : 'Can be forced'}
                              </td>
                            </tr>
                          ))}
                        </tbody>
                      </table>
                    </section>
                    <ForcedListForm list={list} label={list.label} people={people} saved={reload} />
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
