import { call, client } from '../../api';
import { Loaded } from '../../components';
import { useLoad } from '../../hooks';
import { Outcome, useAction } from '../panel/action';

const ACTIONS = [
  ['warn', 'Warn'],
  ['require_approval', "Require an admin's approval"],
  ['refuse', 'Refuse'],
] as const;

/** The off limits, blackout dates and time off types (for their names). */
async function loadLeaveRules() {
  const [limits, blackouts, types] = await Promise.all([
    call(client.GET('/v1/off_limits')),
    call(client.GET('/v1/time_off_blackouts')),
    call(client.GET('/v1/time_off_types')),
  ]);
  return { limits, blackouts, types };
}

type Types = Awaited<ReturnType<typeof loadLeaveRules>>['types'];

/** "Time off type": one of the types, or (`every`) every type. */
function TypeSelect({ types, every = false }: { types: Types; every?: boolean }) {
  return (
    <label>
      Time off type
      <select name="type" required={!every}>
        {every && <option value="">Every type</option>}
        {types.map((t) => (
          <option key={t.id} value={String(t.id)}>
            {t.label}
          </option>
        ))}
      </select>
    </label>
  );
}

const text = (form: FormData, name: string) => String(form.get(name) ?? '').trim();

/**
 * Who may be off (docs/contract-rules.md): the off limits ("at most N off", its action and scope:
 * platoon, time off type) and the blackout dates per type, each added and removed through the API.
 */
export function LeaveRules() {
  const [value, reload] = useLoad(loadLeaveRules, []);
  const action = useAction();
  const submit = (build: (form: FormData) => Promise<string>) => (event: Event) => {
    event.preventDefault();
    const element = event.currentTarget as HTMLFormElement;
    void action.run(async () => {
      const said = await build(new FormData(element));
      element.reset();
      reload();
      return said;
    });
  };
  const remove = (what: string, run: () => Promise<unknown>) =>
    action.run(async () => {
      await run();
      reload();
      return `Removed ${what}.`;
    });
  const addLimit = submit(async (form) => {
    const type = text(form, 'type');
    await call(
      client.POST('/v1/off_limits', {
        body: {
          name: text(form, 'name'),
          max_off: Number(text(form, 'max_off')),
          action: text(form, 'action') as (typeof ACTIONS)[number][0],
          platoon: text(form, 'platoon') || null,
          time_off_type_ids: type ? [Number(type)] : [],
        },
      }),
    );
    return `Added the off limit ${text(form, 'name')}: at most ${text(form, 'max_off')} off.`;
  });
  const addBlackout = submit(async (form) => {
    await call(
      client.POST('/v1/time_off_blackouts', {
        body: {
          time_off_type_id: Number(text(form, 'type')),
          start_date: text(form, 'start'),
          end_date: text(form, 'end'),
          reason: text(form, 'reason') || null,
        },
      }),
    );
    return `Blacked out ${text(form, 'start')} to ${text(form, 'end')}.`;
  });
  return (
    <section aria-labelledby="leave-rules-title">
      <h2 id="leave-rules-title">Who may be off</h2>
      <Outcome done={action.done} error={action.error} />
      <Loaded value={value} what="the leave rules" retry={reload}>
        {({ limits, blackouts, types }) => {
          const typeName = (id: number | string) => types.find((t) => Number(t.id) === Number(id))?.label ?? `#${id}`;
          return (
            <div class="cards settings">
              <form class="card form settings-off-limits" onSubmit={addLimit} aria-labelledby="off-limits-title">
                <h3 id="off-limits-title">Off limits</h3>
                {limits.length === 0 && <p>No off limit: any number may be off.</p>}
                <ul class="rules">
                  {limits.map((limit) => (
                    <li key={limit.id} data-off-limit={limit.id}>
                      <span>
                        <strong>{limit.name}</strong>: at most {limit.max_off} off,{' '}
                        {ACTIONS.find(([a]) => a === limit.action)?.[1].toLowerCase() ?? limit.action}
                        {limit.platoon && ` · ${limit.platoon}`}
                        {limit.time_off_type_ids.length > 0 && ` · ${limit.time_off_type_ids.map(typeName).join(', ')}`}
                      </span>
                      <button
                        type="button"
                        onClick={() =>
                          remove(limit.name, () =>
                            call(client.DELETE('/v1/off_limits/{id}', { params: { path: { id: limit.id } } })),
                          )
                        }
                      >
                        Remove {limit.name}
                      </button>
                    </li>
                  ))}
                </ul>
                <label>
                  Name <input type="text" name="name" required maxLength={255} />
                </label>
                <label>
                  At most off <input type="number" name="max_off" required min={0} max={10000} />
                </label>
                <label>
                  Action
                  <select name="action">
                    {ACTIONS.map(([a, words]) => (
                      <option key={a} value={a}>
                        {words}
                      </option>
                    ))}
                  </select>
                </label>
                <label>
                  Platoon (visual cycle name; empty: every day) <input type="text" name="platoon" maxLength={255} />
                </label>
                <TypeSelect types={types} every />
                <button type="submit" class="primary" aria-disabled={action.busy}>
                  Add off limit
                </button>
              </form>
              <form class="card form settings-blackouts" onSubmit={addBlackout} aria-labelledby="blackouts-title">
                <h3 id="blackouts-title">Blackout dates</h3>
                {blackouts.length === 0 && <p>No blackout dates.</p>}
                <ul class="rules">
                  {blackouts.map((b) => (
                    <li key={b.id} data-blackout={b.id}>
                      <span>
                        <strong>{typeName(b.time_off_type_id)}</strong>: {b.start_date} to {b.end_date}
                        {b.reason && ` (${b.reason})`}
                      </span>
                      <button
                        type="button"
                        onClick={() =>
                          remove(`the blackout of ${b.start_date}`, () =>
                            call(client.DELETE('/v1/time_off_blackouts/{id}', { params: { path: { id: b.id } } })),
                          )
                        }
                      >
                        Remove the blackout of {b.start_date}
                      </button>
                    </li>
                  ))}
                </ul>
                <TypeSelect types={types} />
                <label>
                  From <input type="date" name="start" required />
                </label>
                <label>
                  To <input type="date" name="end" required />
                </label>
                <label>
                  Reason <input type="text" name="reason" maxLength={255} />
                </label>
                <button type="submit" class="primary" aria-disabled={action.busy}>
                  Add blackout
                </button>
              </form>
            </div>
          );
        }}
      </Loaded>
    </section>
  );
}
