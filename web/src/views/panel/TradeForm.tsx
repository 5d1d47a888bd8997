import { useState } from 'preact/hooks';
import { call, client, type Session } from '../../api';
import { ErrorBox } from '../../components';
import { nowIn, span } from '../../dates';
import { useLoad } from '../../hooks';
import type { Shift } from '../../types';
import type { BoardData, PanelTarget } from '../board/model';
import { Outcome, useAction } from './action';

/** Shifts of other people in view, by person: what a swap can give back. */
function shiftsByPerson(data: BoardData, except: Shift): Map<number, Array<Shift & { assignment: string }>> {
  const byPerson = new Map<number, Array<Shift & { assignment: string }>>();
  for (const day of data.schedule.days)
    for (const assignment of day.assignments)
      for (const shift of assignment.shifts) {
        if (shift.user.id === except.user.id) continue;
        const list = byPerson.get(shift.user.id) ?? [];
        if (!list.some((s) => s.start === shift.start && s.end === shift.end))
          list.push({ ...shift, assignment: assignment.name });
        byPerson.set(shift.user.id, list);
      }
  return byPerson;
}

/** A local datetime (`YYYY-MM-DD hh:mm:ss`) as a datetime-local input holds it, and back (on the minute). */
const toInput = (local: string) => local.slice(0, 16).replace(' ', 'T');
const fromInput = (value: string) => `${value.replace('T', ' ')}:00`;

/**
 * Moves the shift (or part of it: at least an hour, on the minute) to another person, or swaps it
 * for one of theirs: one request (`POST /trades` with the taker's acceptance and `approve`) that
 * requests and approves the trade: the work moves, or nothing is written.
 */
export function TradeForm({
  target,
  data,
  session,
  onChanged,
}: {
  target: Extract<PanelTarget, { kind: 'person' }>;
  data: BoardData;
  session: Session;
  onChanged: () => void;
}) {
  const { shift } = target;
  const [users] = useLoad(() => call(client.GET('/v1/users')), []);
  const [taker, setTaker] = useState('');
  const [back, setBack] = useState('');
  const [from, setFrom] = useState(toInput(shift.start));
  const [until, setUntil] = useState(toInput(shift.end));
  const part = { start: from ? fromInput(from) : shift.start, end: until ? fromInput(until) : shift.end };
  const partial = part.start !== shift.start || part.end !== shift.end;
  const action = useAction();
  const theirs = taker ? (shiftsByPerson(data, shift).get(Number(taker)) ?? []) : [];
  // an occurrence by its hours: occurrences of one rotation shift share its id
  const hoursOf = (s: Shift) => `${s.start}/${s.end}`;
  const given = theirs.find((s) => hoursOf(s) === back);
  const begun = shift.start <= nowIn(session.organization.timezone);
  // the payback ledger between the two (GET /users/{id}/trade_balance), once a taker is chosen
  const [ledger] = useLoad(
    () => call(client.GET('/v1/users/{user_id}/trade_balance', { params: { path: { user_id: shift.user.id } } })),
    [shift.user.id],
  );
  const owed = ledger.state === 'ready' ? ledger.data.find((c) => String(c.user.id) === taker) : undefined;
  const submit = (event: Event) => {
    event.preventDefault();
    void action.run(async () => {
      const people = users.state === 'ready' ? users.data : [];
      const person = people.find((u) => String(u.user_id) === taker);
      if (!person) throw new Error('Choose who takes the shift.');
      const trade = await call(
        client.POST('/v1/trades', {
          body: {
            requesting_user: shift.user.id,
            start: part.start,
            end: part.end,
            approving_user_id: session.user.id,
            accepting_user_id: Number(person.user_id),
            ...(given ? { swap_start: given.start, swap_end: given.end } : {}),
            notes: 'Arranged from the schedule board',
            approve: true,
            // the shift as the board read it: refused (409) once it has moved or ended meanwhile
            for_shift: { id: shift.id, recurring: shift.recurring, start: shift.start, end: shift.end },
          },
        }),
      );
      onChanged();
      return given
        ? `Swapped: ${person.full_name} works ${span(part.start, part.end)}, ${shift.user.name} works ${span(given.start, given.end)} (trade #${trade.id}).`
        : `Moved: ${person.full_name} works ${span(part.start, part.end)} instead of ${shift.user.name} (trade #${trade.id}).`;
    });
  };
  return (
    <form class="form panel-form" onSubmit={submit} aria-labelledby="trade-title">
      <h3 id="trade-title">Move or swap</h3>
      {begun && <p class="hint">This shift has begun: a trade moves only work still to come.</p>}
      {users.state === 'error' && <ErrorBox message={users.message} />}
      <label>
        Give the shift to
        <select
          value={taker}
          required
          onChange={(e) => {
            setTaker((e.target as HTMLSelectElement).value);
            setBack('');
          }}
        >
          <option value="">Choose a person</option>
          {users.state === 'ready' &&
            users.data
              .filter((u) => Number(u.user_id) !== shift.user.id)
              .map((u) => (
                <option key={u.user_id} value={String(u.user_id)}>
                  {u.full_name}
                </option>
              ))}
        </select>
      </label>
      {taker && ledger.state === 'ready' && (
        <p class="hint">
          Trade balance: {shift.user.name} owes {owed?.user_owes ?? 0} h, is owed {owed?.owes_user ?? 0} h.
        </p>
      )}
      <fieldset>
        <legend>
          Hours traded <small>(part of the shift: at least one hour)</small>
        </legend>
        <label>
          From
          <input
            type="datetime-local"
            step={60}
            value={from}
            min={toInput(shift.start)}
            max={toInput(shift.end)}
            onInput={(e) => setFrom((e.target as HTMLInputElement).value)}
          />
        </label>
        <label>
          Until
          <input
            type="datetime-local"
            step={60}
            value={until}
            min={toInput(shift.start)}
            max={toInput(shift.end)}
            onInput={(e) => setUntil((e.target as HTMLInputElement).value)}
          />
        </label>
      </fieldset>
      <label>
        In return <small>(their shifts in view)</small>
        <select value={back} onChange={(e) => setBack((e.target as HTMLSelectElement).value)} disabled={!taker}>
          <option value="">Nothing: move the shift</option>
          {theirs.map((s) => (
            <option key={hoursOf(s)} value={hoursOf(s)}>
              {s.assignment}, {span(s.start, s.end)}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" class="primary" disabled={begun || users.state !== 'ready'} aria-disabled={action.busy}>
        {given ? 'Swap shifts' : partial ? 'Move these hours' : 'Move shift'}
      </button>
      <Outcome done={action.done} error={action.error} />
    </form>
  );
}
