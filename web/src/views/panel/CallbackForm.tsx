import { useState } from 'preact/hooks';
import { call, client, type Session } from '../../api';
import { ErrorBox } from '../../components';
import { nowIn, span } from '../../dates';
import { useLoad } from '../../hooks';
import type { VacancyCandidates } from '../../types';
import { Outcome, useAction } from './action';
import { fromField, toField } from './fields';

export type Vacancy = VacancyCandidates['vacancy'];

/** Starts a callback for the open seat on a callback list: the list's members are offered the hours. */
export function CallbackForm({
  vacancy,
  session,
  onChanged,
}: {
  vacancy: Vacancy;
  session: Session;
  onChanged: () => void;
}) {
  const [lists] = useLoad(() => call(client.GET('/v1/lists')), []);
  const start = vacancy.short_from ?? vacancy.start;
  const end = vacancy.short_until ?? vacancy.end;
  // offers close when the seat's hours begin, or at their end when they have begun already
  const [deadline, setDeadline] = useState(toField(start > nowIn(session.organization.timezone) ? start : end));
  const [positions, setPositions] = useState(String(Math.max(1, vacancy.open)));
  const [listId, setListId] = useState('');
  const action = useAction();
  const submit = (event: Event) => {
    event.preventDefault();
    void action.run(async () => {
      const available = lists.state === 'ready' ? lists.data : [];
      const list = available.find((l) => String(l.id) === listId) ?? available[0];
      if (!list) throw new Error('There is no callback list to call people from.');
      const started = await call(
        client.POST('/v1/callbacks', {
          body: {
            list_id: list.id,
            initiated_by: session.user.id,
            start,
            end,
            positions_to_fill: Number(positions),
            deadline: fromField(deadline),
            assignment_id: vacancy.assignment.id,
          },
        }),
      );
      onChanged();
      const seat = started.vacancy
        ? started.vacancy.extra_staffing
          ? ' The seat was not short: the callback adds staff.'
          : ` ${started.vacancy.scheduled} of ${started.vacancy.needed} on duty, ${started.vacancy.open} open.`
        : '';
      return `Callback #${started.id} started on ${list.name}: ${started.candidates.length} to contact, ${started.skipped.length} not eligible.${seat}`;
    });
  };
  return (
    <form class="form panel-form" onSubmit={submit} aria-labelledby="callback-title">
      <h3 id="callback-title">Start a callback</h3>
      <p class="hint">
        Offers {span(start, end)} to a callback list's members in its order (Callbacks view shows the answers).
      </p>
      {lists.state === 'error' && <ErrorBox message={lists.message} />}
      <label>
        Callback list
        <select
          value={listId || (lists.state === 'ready' ? String(lists.data[0]?.id ?? '') : '')}
          onChange={(e) => setListId((e.target as HTMLSelectElement).value)}
        >
          {lists.state === 'ready' &&
            lists.data.map((list) => (
              <option key={list.id} value={String(list.id)}>
                {list.name}
              </option>
            ))}
        </select>
      </label>
      <label>
        People needed
        <input
          type="number"
          min={1}
          max={1000}
          required
          value={positions}
          onInput={(e) => setPositions((e.target as HTMLInputElement).value)}
        />
      </label>
      <label>
        Answers by <small>(organization time)</small>
        <input
          type="datetime-local"
          required
          value={deadline}
          onInput={(e) => setDeadline((e.target as HTMLInputElement).value)}
        />
      </label>
      <button type="submit" class="primary" disabled={lists.state !== 'ready'} aria-disabled={action.busy}>
        Start callback
      </button>
      <Outcome done={action.done} error={action.error} />
    </form>
  );
}
