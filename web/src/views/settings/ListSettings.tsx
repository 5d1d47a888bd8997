import { call, client } from '../../api';
import { Loaded } from '../../components';
import { useLoad } from '../../hooks';
import type { CallbackListDetail } from '../../types';
import { Outcome, useAction } from '../panel/action';

interface ListsData {
  lists: CallbackListDetail[];
  groups: Array<{ id: string; label: string }>;
  users: Array<{ id: number; name: string; lists: number[] }>;
}

/** The callback lists (GET /v1/lists, /v1/lists/{id}), the groups, and each user's lists (GET /v1/users/{id}/titles). */
async function loadLists(): Promise<ListsData> {
  const [summaries, groups, people] = await Promise.all([
    call(client.GET('/v1/lists')),
    call(client.GET('/v1/groups')),
    call(client.GET('/v1/users')),
  ]);
  const [lists, memberships] = await Promise.all([
    Promise.all(summaries.map((l) => call(client.GET('/v1/lists/{id}', { params: { path: { id: l.id } } })))),
    Promise.all(
      people.map((p) =>
        call(client.GET('/v1/users/{user_id}/titles', { params: { path: { user_id: Number(p.user_id) } } })),
      ),
    ),
  ]);
  const users = people.map((p, i) => ({
    id: Number(p.user_id),
    name: p.full_name,
    lists: memberships[i]!.map((l) => l.id),
  }));
  return { lists, groups, users };
}

/**
 * One list: its members (checkboxes; a change sends PUT /v1/users/{id}/titles for each user whose
 * lists change), the contact order, the runner's contact window and the notice group (PATCH /v1/lists/{id}).
 */
function ListForm({ list, data, saved }: { list: CallbackListDetail; data: ListsData; saved: () => void }) {
  const { busy, done, error, run } = useAction();
  const prefix = `list-${list.id}`;
  const submit = (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const members = new Set(form.getAll('member').map(Number));
    const minutes = String(form.get('window') ?? '');
    const group = String(form.get('group') ?? '');
    const ordering = String(form.get('ordering'));
    void run(async () => {
      await call(
        client.PATCH('/v1/lists/{id}', {
          params: { path: { id: list.id } },
          body: {
            contact_window_minutes: minutes === '' ? null : Number(minutes),
            notify_group_id: group === '' ? null : Number(group),
            ...(ordering === 'rotating' || ordering === 'hours' || ordering === 'seniority' ? { ordering } : {}),
          },
        }),
      );
      const changed = data.users.filter((u) => u.lists.includes(list.id) !== members.has(u.id));
      for (const user of changed) {
        const ids = members.has(user.id) ? [...user.lists, list.id] : user.lists.filter((id) => id !== list.id);
        await call(client.PUT('/v1/users/{user_id}/titles', { params: { path: { user_id: user.id } }, body: { ids } }));
      }
      saved();
      return `Saved ${list.name}${changed.length ? `: ${changed.length} member change(s)` : ''}.`;
    });
  };
  return (
    <form class="card form settings-list" onSubmit={submit} data-list={list.id} aria-labelledby={`${prefix}-title`}>
      <h3 id={`${prefix}-title`}>{list.name}</h3>
      {list.contact_window_minutes === null && (
        <p class="warning" data-no-window>
          This list contacts nobody: set a contact window.
        </p>
      )}
      <label>
        Contact order
        <select name="ordering">
          <option value="">As it is</option>
          <option value="rotating">Rotating (contacted move to the bottom)</option>
          <option value="hours">Fewest hours first</option>
          <option value="seniority">Seniority</option>
        </select>
      </label>
      <label>
        Contact window (minutes; empty: answers by hand)
        <input type="number" name="window" min={1} max={10080} defaultValue={list.contact_window_minutes ?? ''} />
      </label>
      <label>
        Notice group
        {/* `selected` on the option: Preact writes a select's defaultValue as an attribute, which it ignores */}
        <select name="group">
          <option value="" selected={list.notify_group_id === null}>
            None
          </option>
          {data.groups.map((g) => (
            <option key={g.id} value={g.id} selected={String(g.id) === String(list.notify_group_id)}>
              {g.label}
            </option>
          ))}
        </select>
      </label>
      <fieldset class="members">
        <legend>Members</legend>
        {data.users.map((u) => (
          <label key={u.id}>
            <input type="checkbox" name="member" value={u.id} defaultChecked={u.lists.includes(list.id)} /> {u.name}
          </label>
        ))}
      </fieldset>
      <button type="submit" class="primary" aria-disabled={busy}>
        Save {list.name}
      </button>
      <Outcome done={done} error={error} />
    </form>
  );
}

export function ListSettings() {
  const [value, reload] = useLoad(loadLists, []);
  return (
    <section aria-labelledby="list-settings-title">
      <h2 id="list-settings-title">Callback lists</h2>
      <Loaded value={value} what="callback lists" retry={reload}>
        {(data) =>
          data.lists.length === 0 ? (
            <p>No callback lists.</p>
          ) : (
            <div class="cards settings">
              {data.lists.map((list) => (
                <ListForm key={list.id} list={list} data={data} saved={reload} />
              ))}
            </div>
          )
        }
      </Loaded>
    </section>
  );
}
