import { useEffect, useRef, useState } from 'preact/hooks';
import { api, type Session } from '../api';
import { ErrorBox, Loaded } from '../components';
import { longDate, span } from '../dates';
import { useLoad } from '../hooks';
import type { Shift, TimeOffType, VacancyCandidates, WorkType } from '../types';
import type { BoardData } from './Board';

/** What the side panel shows: an occurrence's open seat, or a person's shift. */
export type PanelTarget =
  | { kind: 'seat'; assignmentId: number; date: string; note?: string }
  | { kind: 'person'; shift: Shift; assignment: { id: number; name: string }; date: string };

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

function SeatPanel({ target, data, session, onChanged }: { target: Extract<PanelTarget, { kind: 'seat' }>; data: BoardData; session: Session; onChanged: () => void }) {
  const { assignmentId, date } = target;
  const [value, reload] = useLoad(() => api.get<VacancyCandidates>('/vacancies/candidates', { assignment_id: assignmentId, date }), [assignmentId, date]);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<string | null>(target.note ?? null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => setDone(target.note ?? null), [target]);

  const fill = async (vacancy: VacancyCandidates['vacancy'], person: { id: number; name: string }) => {
    setBusy(true);
    setError(null);
    try {
      await api.post('/shifts', {
        assignment_id: assignmentId,
        user_id: person.id,
        date,
        start: vacancy.short_from ?? vacancy.start,
        end: vacancy.short_until ?? vacancy.end,
        work_type_id: await workTypeFor(data, assignmentId),
        admin_id: session.user.id,
      });
      setDone(`${person.name} placed on ${vacancy.assignment.name}.`);
      onChanged();
      reload();
    } catch (failure) {
      setError((failure as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      {done && (
        <p class="done" role="status">
          {done}
        </p>
      )}
      {error && <ErrorBox message={error} />}
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
                {vacancy.qualifier_shortfalls.map((q) => ` · ${q.shortcode ?? `#${q.id}`} ${q.have} of ${q.needed}`).join('')}
              </p>
              {vacancy.short_from && vacancy.short_until && (vacancy.short_from !== vacancy.start || vacancy.short_until !== vacancy.end) && (
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
                        <button type="button" class="primary" disabled={busy} onClick={() => fill(vacancy, c.user)} aria-label={`Fill with ${c.user.name}`}>
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
                </>
              )}
            </>
          );
        }}
      </Loaded>
    </>
  );
}

function PersonPanel({ target, session, onChanged, onOpen }: { target: Extract<PanelTarget, { kind: 'person' }>; session: Session; onChanged: () => void; onOpen: (t: PanelTarget) => void }) {
  const { shift, assignment, date } = target;
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const markSick = async () => {
    setBusy(true);
    setError(null);
    try {
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
      onOpen({ kind: 'seat', assignmentId: assignment.id, date, note: `${shift.user.name} marked sick (${sick.label}); the seat is open.` });
    } catch (failure) {
      setError((failure as Error).message);
      setBusy(false);
    }
  };
  return (
    <>
      <p>
        {assignment.name} · {span(shift.start, shift.end)}
      </p>
      <p>
        {shift.work_type.name} · {shift.recurring ? 'rotation' : 'one-off shift'}
        {shift.qualifiers.length > 0 && ` · ${shift.qualifiers.map((q) => q.shortcode ?? q.name).join(', ')}`}
      </p>
      {error && <ErrorBox message={error} />}
      <div class="buttons">
        <button type="button" disabled={busy} onClick={markSick}>
          Mark sick
        </button>
      </div>
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
  useEffect(() => {
    const escape = (event: KeyboardEvent) => event.key === 'Escape' && onClose();
    window.addEventListener('keydown', escape);
    return () => window.removeEventListener('keydown', escape);
  }, [onClose]);
  const title = target.kind === 'seat' ? `Open seat, ${longDate(target.date)}` : `${target.shift.user.name}, ${longDate(target.date)}`;
  return (
    <aside class="panel no-print" aria-labelledby="panel-title">
      <div class="panel-head">
        <h2 id="panel-title" tabIndex={-1} ref={heading}>
          {title}
        </h2>
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
      {target.kind === 'seat' ? (
        <SeatPanel key={`${target.assignmentId}-${target.date}`} target={target} data={data} session={session} onChanged={onChanged} />
      ) : (
        <PersonPanel key={target.shift.id} target={target} session={session} onChanged={onChanged} onOpen={onOpen} />
      )}
    </aside>
  );
}
