import { call, client } from '../../api';
import { Loaded } from '../../components';
import { useLoad } from '../../hooks';
import type { TimeOffTypeDetail } from '../../types';
import { Outcome, useAction } from '../panel/action';

/** Every time off type with its extension fields (GET /v1/time_off_types, then GET /v1/time_off_types/{id}). */
async function loadTypes(): Promise<TimeOffTypeDetail[]> {
  const types = await call(client.GET('/v1/time_off_types'));
  return Promise.all(
    types.map((type) => call(client.GET('/v1/time_off_types/{id}', { params: { path: { id: Number(type.id) } } }))),
  );
}

/** One type's settings: callable, masked and its public name, sick leave, the overdraft rule; Save sends PATCH. */
function TypeForm({ type, saved }: { type: TimeOffTypeDetail; saved: () => void }) {
  const { busy, done, error, run } = useAction();
  const prefix = `type-${type.id}`;
  const submit = (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const rule = String(form.get('overdraft'));
    const limit = Number(form.get('overdraft_hours') || 0);
    void run(async () => {
      await call(
        client.PATCH('/v1/time_off_types/{id}', {
          params: { path: { id: Number(type.id) } },
          body: {
            force_include: form.get('callable') === 'on',
            masked: form.get('masked') === 'on',
            public_name: String(form.get('public_name') ?? '').trim() || null,
            sick_leave: form.get('sick_leave') === 'on',
            overdraft_hours: rule === 'allow' ? null : rule === 'refuse' ? 0 : limit,
          },
        }),
      );
      saved();
      return `Saved ${type.label}.`;
    });
  };
  return (
    <form class="card form settings-type" onSubmit={submit} data-type={type.id} aria-labelledby={`${prefix}-title`}>
      <h3 id={`${prefix}-title`}>{type.label}</h3>
      <label>
        <input type="checkbox" name="callable" defaultChecked={type.force_include} /> Callable (holders may be offered
        callbacks)
      </label>
      <label>
        <input type="checkbox" name="masked" defaultChecked={type.masked} /> Masked (others see the public name)
      </label>
      <label>
        Public name{' '}
        <input
          type="text"
          name="public_name"
          maxLength={255}
          placeholder="Off"
          defaultValue={type.masked ? type.public_name : ''}
        />
      </label>
      <label>
        <input type="checkbox" name="sick_leave" defaultChecked={type.sick_leave} /> Sick leave (what Mark sick records)
      </label>
      <label>
        Overdraft
        {/* `selected` on the option: Preact writes a select's defaultValue as an attribute, which it ignores */}
        <select name="overdraft">
          <option value="refuse" selected={type.overdraft === 'refuse'}>
            Refuse
          </option>
          <option value="limit" selected={type.overdraft === 'limit'}>
            Allow down to − hours
          </option>
          <option value="allow" selected={type.overdraft === 'allow'}>
            Allow any
          </option>
        </select>
      </label>
      <label>
        Overdraft hours{' '}
        <input
          type="number"
          name="overdraft_hours"
          min={0}
          step="any"
          defaultValue={String(type.overdraft_hours ?? 0)}
        />
      </label>
      <button type="submit" class="primary" aria-disabled={busy}>
        Save {type.label}
      </button>
      <Outcome done={done} error={error} />
    </form>
  );
}

export function TypeSettings() {
  const [value, reload] = useLoad(loadTypes, []);
  return (
    <section aria-labelledby="type-settings-title">
      <h2 id="type-settings-title">Time off types</h2>
      <Loaded value={value} what="time off types" retry={reload}>
        {(types) => (
          <div class="cards settings">
            {types.map((type) => (
              <TypeForm key={`${type.id}`} type={type} saved={reload} />
            ))}
          </div>
        )}
      </Loaded>
    </section>
  );
}
