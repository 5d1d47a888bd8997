import { useEffect, useRef, useState } from 'preact/hooks';
import { api, type Session } from '../api';
import { ErrorBox, Loaded } from '../components';
import { longDate, nowIn, span } from '../dates';
import { useLoad } from '../hooks';
import type {
  CallbackList,
  DayNotes,
  Shift,
  StartedCallback,
  TimeOffType,
  TradeWritten,
  UserSummary,
  VacancyCandidates,
  WorkType,
} from '../types';
import type { BoardData } from './Board';

/** What the side panel shows: an occurrence's open seat, or a person's shift. */
export type PanelTarget =
  | { kind: 'seat'; assignmentId: number; date: string; note?: string }
  | { kind: 'person'; shift: Shift; assignment: { id: number; name: string }; date: string };

type Vacancy = VacancyCandidates['vacancy'];

/** The work type a new shift on the assignment gets: the one its shifts in view use, else the first. */
async function workTypeFor(data: BoardData, assignmentId: number): Promise<number> {
  for (const day of data.schedule.days) {
    const shift = day.assignments.find((a) => a.id === assignmentId)?.shifts[0];
    if (shift) return shift.work_type.id;
  }
  const types = await api.get<WorkType[]>('/work_types');
  if (!types.length) throw new Error('There is no work type to schedule the shift with.');
  return types[0].id;
}

/** A note typed by a person is text: the API stores HTML, so `<`, `>` and `&` are escaped. */
const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A stored note (sanitized HTML) as plain text, without running or rendering anything of it. */
export const noteText = (html: string) => new DOMParser().parseFromString(html, 'text/html').body.textContent ?? '';

/** `YYYY-MM-DD HH:MM:SS` ⇄ the value of a `datetime-local` field. */
const toField = (local: string) => local.slice(0, 16).replace(' ', 'T');
const fromField = (value: string) => `${value.replace('T', ' ')}:00`.slice(0, 19);

/**
 * Runs one action of the panel: `busy` while it runs (a second press is ignored; buttons say so with
 * `aria-disabled` rather than `disabled`, which would drop the keyboard focus), then a result
 * message (role=status) or the API's error in words (role=alert).
 */
function useAction(): {
  busy: boolean;
  done: string | null;
  error: string | null;
  run: (action: () => Promise<string>) => Promise<void>;
  setDone: (message: string | null) => void;
} {
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const running = useRef(false);
  const run = async (action: () => Promise<string>) => {
    if (running.current) return;
    running.current = true;
    setBusy(true);
    setError(null);
    setDone(null);
    try {
      setDone(await action());
    } catch (failure) {
      setError((failure as Error).message);
    } finally {
      running.current = false;
      setBusy(false);
    }
  };
  return { busy, done, error, run, setDone };
}

function Outcome({ done, error }: { done: string | null; error: string | null }) {
  return (
    <div aria-live="polite">
      {done && (
        <p class="done" role="status">
          {done}
        </p>
      )}
      {error && <ErrorBox message={error} />}
    </div>
  );
}

/** Starts a callback for the open seat on a callback list: the list's members are offered the hours. */
function CallbackForm({ vacancy, session, onChanged }: { vacancy: Vacancy; session: Session; onChanged: () => void }) {
  const [lists] = useLoad(() => api.get<CallbackList[]>('/lists'), []);
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
      const started = await api.post<StartedCallback>('/callbacks', {
        list_id: list.id,
        initiated_by: session.user.id,
        start,
        end,
        positions_to_fill: Number(positions),
        deadline: fromField(deadline),
        assignment_id: vacancy.assignment.id,
      });
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

/** Adds a note to the day (`PUT /day_notes/{date}` with the day's notes and the new one). */
function NoteForm({ date, onChanged }: { date: string; onChanged: () => void }) {
  const [notes, reload] = useLoad(() => api.get<DayNotes>(`/day_notes/${date}`), [date]);
  const [text, setText] = useState('');
  const action = useAction();
  const submit = (event: Event) => {
    event.preventDefault();
    void action.run(async () => {
      const note = text.trim();
      if (!note) throw new Error('Write the note first.');
      const current = await api.get<DayNotes>(`/day_notes/${date}`);
      await api.put<DayNotes>(`/day_notes/${date}`, { notes: [...current.notes, escapeHtml(note)] });
      setText('');
      reload();
      onChanged();
      return `Note added to ${longDate(date)}.`;
    });
  };
  return (
    <form class="form panel-form" onSubmit={submit} aria-labelledby="note-title">
      <h3 id="note-title">Notes of the day</h3>
      {notes.state === 'ready' && notes.data.notes.length > 0 && (
        <ul class="day-notes">
          {notes.data.notes.map((note, i) => (
            <li key={i}>{noteText(note)}</li>
          ))}
        </ul>
      )}
      <label>
        New note
        <textarea
          rows={2}
          maxLength={2000}
          value={text}
          onInput={(e) => setText((e.target as HTMLTextAreaElement).value)}
        />
      </label>
      <button type="submit" aria-disabled={action.busy}>
        Add note
      </button>
      <Outcome done={action.done} error={action.error} />
    </form>
  );
}

function SeatPanel({
  target,
  data,
  session,
  onChanged,
}: {
  target: Extract<PanelTarget, { kind: 'seat' }>;
  data: BoardData;
  session: Session;
  onChanged: () => void;
}) {
  const { assignmentId, date } = target;
  const [value, reload] = useLoad(
    () => api.get<VacancyCandidates>('/vacancies/candidates', { assignment_id: assignmentId, date }),
    [assignmentId, date],
  );
  const action = useAction();
  useEffect(() => action.setDone(target.note ?? null), [target]);

  const fill = (vacancy: Vacancy, person: { id: number; name: string }) =>
    action.run(async () => {
      await api.post('/shifts', {
        assignment_id: assignmentId,
        user_id: person.id,
        date,
        start: vacancy.short_from ?? vacancy.start,
        end: vacancy.short_until ?? vacancy.end,
        work_type_id: await workTypeFor(data, assignmentId),
        admin_id: session.user.id,
      });
      onChanged();
      reload();
      return `${person.name} placed on ${vacancy.assignment.name}.`;
    });

  return (
    <>
      <Outcome done={action.done} error={action.error} />
      <Loaded value={value} what="the vacancy" retry={reload}>
        {({ vacancy, candidates, skipped }) => {
          const short = vacancy.open > 0 || vacancy.qualifier_shortfalls.length > 0;
          return (
            <>
              <p>
                {vacancy.assignment.name} · {span(vacancy.start, vacancy.end)}
              </p>
              <p class={short ? 'staffing short' : 'staffing'}>
                {vacancy.scheduled} of {vacancy.needed} on duty · {vacancy.open} open
                {vacancy.qualifier_shortfalls
                  .map((q) => ` · ${q.shortcode ?? `#${q.id}`} ${q.have} of ${q.needed}`)
                  .join('')}
              </p>
              {vacancy.short_from &&
                vacancy.short_until &&
                (vacancy.short_from !== vacancy.start || vacancy.short_until !== vacancy.end) && (
                  <p>Short {span(vacancy.short_from, vacancy.short_until)}</p>
                )}
              <p>On it: {vacancy.people.length ? vacancy.people.map((p) => p.name).join(', ') : 'nobody'}</p>
              {!short ? (
                <p class="vacancy-closed">Fully staffed: no open seat.</p>
              ) : (
                <>
                  <h3>Who may fill it</h3>
                  {candidates.length === 0 && <p>Nobody is free and qualified.</p>}
                  <ol class="candidates">
                    {candidates.map((c) => (
                      <li key={c.user.id}>
                        <span>{c.user.name}</span>
                        <button
                          type="button"
                          class="primary"
                          aria-disabled={action.busy}
                          onClick={() => fill(vacancy, c.user)}
                          aria-label={`Fill with ${c.user.name}`}
                        >
                          Fill
                        </button>
                      </li>
                    ))}
                  </ol>
                  {skipped.length > 0 && (
                    <details>
                      <summary>Not eligible ({skipped.length})</summary>
                      <ul class="skipped">
                        {skipped.map((s) => (
                          <li key={s.user.id}>
                            {s.user.name}: {s.reason}
                          </li>
                        ))}
                      </ul>
                    </details>
                  )}
                  <CallbackForm vacancy={vacancy} session={session} onChanged={onChanged} />
                </>
              )}
            </>
          );
        }}
      </Loaded>
      <NoteForm date={date} onChanged={onChanged} />
    </>
  );
}

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

/**
 * Moves the shift to another person, or swaps it for one of theirs: a trade requested for the
 * person with the taker's acceptance (`POST /trades`), then approved by the admin (`PATCH`), which
 * moves the work.
 */
function TradeForm({
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
  const [users] = useLoad(() => api.get<UserSummary[]>('/users'), []);
  const [taker, setTaker] = useState('');
  const [back, setBack] = useState('');
  const action = useAction();
  const theirs = taker ? (shiftsByPerson(data, shift).get(Number(taker)) ?? []) : [];
  // an occurrence by its hours: occurrences of one rotation shift share its id
  const hoursOf = (s: Shift) => `${s.start}/${s.end}`;
  const given = theirs.find((s) => hoursOf(s) === back);
  const begun = shift.start <= nowIn(session.organization.timezone);
  const submit = (event: Event) => {
    event.preventDefault();
    void action.run(async () => {
      const people = users.state === 'ready' ? users.data : [];
      const person = people.find((u) => String(u.user_id) === taker);
      if (!person) throw new Error('Choose who takes the shift.');
      const trade = await api.post<TradeWritten>('/trades', {
        requesting_user: shift.user.id,
        start: shift.start,
        end: shift.end,
        approving_user_id: session.user.id,
        accepting_user_id: Number(person.user_id),
        ...(given ? { swap_start: given.start, swap_end: given.end } : {}),
        notes: 'Arranged from the schedule board',
      });
      try {
        await api.patch(`/trades/${trade.id}`, { action: 'approve', admin_id: session.user.id });
      } catch (failure) {
        // the trade was accepted but cannot be approved: withdraw it rather than leave it hanging
        await api.patch(`/trades/${trade.id}`, { action: 'cancel' }).catch(() => undefined);
        throw failure;
      }
      onChanged();
      return given
        ? `Swapped: ${person.full_name} works ${span(shift.start, shift.end)}, ${shift.user.name} works ${span(given.start, given.end)} (trade #${trade.id}).`
        : `Moved: ${person.full_name} works ${span(shift.start, shift.end)} instead of ${shift.user.name} (trade #${trade.id}).`;
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
        {given ? 'Swap shifts' : 'Move shift'}
      </button>
      <Outcome done={action.done} error={action.error} />
    </form>
  );
}

function PersonPanel({
  target,
  data,
  session,
  onChanged,
  onOpen,
}: {
  target: Extract<PanelTarget, { kind: 'person' }>;
  data: BoardData;
  session: Session;
  onChanged: () => void;
  onOpen: (t: PanelTarget) => void;
}) {
  const { shift, assignment, date } = target;
  const action = useAction();
  const markSick = () =>
    action.run(async () => {
      const sick = (await api.get<TimeOffType[]>('/time_off_types')).find((t) => /sick/i.test(t.label));
      if (!sick) throw new Error('There is no time off type named Sick.');
      await api.post('/time_offs', {
        user_id: shift.user.id,
        admin_ids: [session.user.id],
        start_date: shift.start,
        end_date: shift.end,
        time_off_type_id: Number(sick.id),
        status: 1,
      });
      onChanged();
      onOpen({
        kind: 'seat',
        assignmentId: assignment.id,
        date,
        note: `${shift.user.name} marked sick (${sick.label}); the seat is open.`,
      });
      return `${shift.user.name} marked sick.`;
    });
  return (
    <>
      <p>
        {assignment.name} · {span(shift.start, shift.end)}
      </p>
      <p>
        {shift.work_type.name} · {shift.recurring ? 'rotation' : 'one-off shift'}
        {shift.qualifiers.length > 0 && ` · ${shift.qualifiers.map((q) => q.shortcode ?? q.name).join(', ')}`}
      </p>
      <Outcome done={action.done} error={action.error} />
      <div class="buttons">
        <button type="button" aria-disabled={action.busy} onClick={markSick}>
          Mark sick
        </button>
      </div>
      <TradeForm target={target} data={data} session={session} onChanged={onChanged} />
      <NoteForm date={date} onChanged={onChanged} />
    </>
  );
}

/** The board's side panel (admins): details of a seat or a person and what can be done there. */
export function SidePanel({
  target,
  data,
  session,
  onChanged,
  onOpen,
  onClose,
}: {
  target: PanelTarget;
  data: BoardData;
  session: Session;
  onChanged: () => void;
  onOpen: (target: PanelTarget) => void;
  onClose: () => void;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  // on close, keyboard users continue where they opened the panel (or at the board's title)
  useEffect(() => {
    const opener = document.activeElement as HTMLElement | null;
    return () => (opener?.isConnected ? opener : document.getElementById('board-title'))?.focus?.();
  }, []);
  useEffect(() => heading.current?.focus(), [target]);
  // an action can remove the focused control (a filled seat's candidates): focus then continues at
  // the panel's heading rather than falling out of the panel to the page
  const aside = useRef<HTMLElement>(null);
  useEffect(() => {
    const panel = aside.current;
    if (!panel) return;
    let inside = false;
    const track = () => {
      inside = panel.contains(document.activeElement);
    };
    const observer = new MutationObserver(() => {
      const lost = !document.activeElement || document.activeElement === document.body;
      if (inside && lost) heading.current?.focus();
    });
    // a click outside the panel is a choice to leave it
    const leave = (event: PointerEvent) => {
      if (!panel.contains(event.target as Node)) inside = false;
    };
    observer.observe(panel, { childList: true, subtree: true });
    document.addEventListener('focusin', track);
    document.addEventListener('pointerdown', leave);
    track();
    return () => {
      observer.disconnect();
      document.removeEventListener('focusin', track);
      document.removeEventListener('pointerdown', leave);
    };
  }, []);
  useEffect(() => {
    const closeOnEscape = (event: KeyboardEvent) => event.key === 'Escape' && onClose();
    window.addEventListener('keydown', closeOnEscape);
    return () => window.removeEventListener('keydown', closeOnEscape);
  }, [onClose]);
  const title =
    target.kind === 'seat'
      ? `Open seat, ${longDate(target.date)}`
      : `${target.shift.user.name}, ${longDate(target.date)}`;
  return (
    <aside class="panel no-print" aria-labelledby="panel-title" ref={aside}>
      <div class="panel-head">
        <h2 id="panel-title" tabIndex={-1} ref={heading}>
          {title}
        </h2>
        <button type="button" onClick={onClose} aria-keyshortcuts="Escape">
          Close
        </button>
      </div>
      {target.kind === 'seat' ? (
        <SeatPanel
          key={`${target.assignmentId}-${target.date}`}
          target={target}
          data={data}
          session={session}
          onChanged={onChanged}
        />
      ) : (
        <PersonPanel
          key={target.shift.id}
          target={target}
          data={data}
          session={session}
          onChanged={onChanged}
          onOpen={onOpen}
        />
      )}
    </aside>
  );
}
