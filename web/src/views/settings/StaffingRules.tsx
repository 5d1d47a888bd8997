import { call, client } from '../../api';
import { Loaded } from '../../components';
import { useLoad } from '../../hooks';
import { Outcome, useAction } from '../panel/action';

/** The group minimums, the assignment groups (stations) and the fatigue rules. */
async function loadStaffingRules() {
  const [minimums, groups, fatigue] = await Promise.all([
    call(client.GET('/v1/group_minimums')),
    call(client.GET('/v1/assignment_groups')),
    call(client.GET('/v1/fatigue_rules')),
  ]);
  return { minimums, groups, fatigue };
}

const FATIGUE = [
  ['max_consecutive_hours', 'Most hours worked in a row'],
  ['rest_hours', 'Hours off required after a long stretch'],
  ['rest_after_hours', '… once this many hours are worked'],
  ['rest_within_hours', '… within this many hours'],
  ['max_period_hours', 'Most hours per work period'],
] as const;

const numberOrNull = (form: FormData, name: string) => {
  const value = String(form.get(name) ?? '').trim();
  return value === '' ? null : Number(value);
};

/**
 * Who must be on duty and how long anyone may work (docs/contract-rules.md): each station's minimum
 * on duty (PUT / DELETE /v1/group_minimums/{group_id}) and the fatigue rules (PATCH /v1/fatigue_rules).
 */
export function StaffingRules() {
  const [value, reload] = useLoad(loadStaffingRules, []);
  const action = useAction();
  const save = (build: (form: FormData) => Promise<string>) => (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    void action.run(async () => {
      const said = await build(form);
      reload();
      return said;
    });
  };
  const setMinimum = save(async (form) => {
    const groupId = Number(form.get('group'));
    const kept =
      value.state === 'ready' ? value.data.minimums.find((m) => m.assignment_group_id === groupId) : undefined;
    const minimum = await call(
      client.PUT('/v1/group_minimums/{group_id}', {
        params: { path: { group_id: groupId } },
        body: { min_on_duty: Number(form.get('min_on_duty')), min_qualified: kept?.min_qualified ?? [] },
      }),
    );
    return `${minimum.name} needs ${minimum.min_on_duty} on duty.`;
  });
  const setFatigue = save(async (form) => {
    const body = Object.fromEntries(FATIGUE.map(([name]) => [name, numberOrNull(form, name)]));
    await call(client.PATCH('/v1/fatigue_rules', { body }));
    return 'Saved the fatigue rules.';
  });
  return (
    <section aria-labelledby="staffing-rules-title">
      <h2 id="staffing-rules-title">Who must be on duty, how long anyone may work</h2>
      <Outcome done={action.done} error={action.error} />
      <Loaded value={value} what="the staffing rules" retry={reload}>
        {({ minimums, groups, fatigue }) => (
          <div class="cards settings">
            <form class="card form settings-group-minimums" onSubmit={setMinimum} aria-labelledby="minimums-title">
              <h3 id="minimums-title">Station minimums</h3>
              {minimums.length === 0 && <p>No station minimum: only each apparatus's own.</p>}
              <ul class="rules">
                {minimums.map((m) => (
                  <li key={m.assignment_group_id} data-group-minimum={m.assignment_group_id}>
                    <span>
                      <strong>{m.name}</strong>: {m.min_on_duty} on duty
                      {m.min_qualified.map((q) => ` · ${q.count} ${q.shortcode ?? `#${q.qualifier_id}`}`).join('')}
                    </span>
                    <button
                      type="button"
                      onClick={() =>
                        action.run(async () => {
                          await call(
                            client.DELETE('/v1/group_minimums/{group_id}', {
                              params: { path: { group_id: m.assignment_group_id } },
                            }),
                          );
                          reload();
                          return `Removed the minimum of ${m.name}.`;
                        })
                      }
                    >
                      Remove the minimum of {m.name}
                    </button>
                  </li>
                ))}
              </ul>
              <label>
                Station
                <select name="group" required>
                  {groups.map((g) => (
                    <option key={g.id} value={g.id}>
                      {g.name}
                    </option>
                  ))}
                </select>
              </label>
              <label>
                On duty at least <input type="number" name="min_on_duty" required min={0} max={10000} />
              </label>
              <button type="submit" class="primary" aria-disabled={action.busy}>
                Set minimum
              </button>
            </form>
            <form class="card form settings-fatigue" onSubmit={setFatigue} aria-labelledby="fatigue-title">
              <h3 id="fatigue-title">Fatigue rules</h3>
              <p class="hint">Hours; empty turns a rule off.</p>
              {FATIGUE.map(([name, words]) => (
                <label key={name}>
                  {words}{' '}
                  <input type="number" name={name} min={1} step="any" defaultValue={String(fatigue[name] ?? '')} />
                </label>
              ))}
              <button type="submit" class="primary" aria-disabled={action.busy}>
                Save fatigue rules
              </button>
            </form>
          </div>
        )}
      </Loaded>
    </section>
  );
}
