import { useEffect } from 'preact/hooks';
import { ApiError, call, client, type Session } from '../../api';
import { Loaded } from '../../components';
import { span } from '../../dates';
import { useLoad } from '../../hooks';
import type { BoardData, PanelTarget } from '../board/model';
import { Outcome, useAction } from './action';
import { CallbackForm, type Vacancy } from './CallbackForm';
import { workTypeFor } from './fields';
import { NoteForm } from './NoteForm';

export function SeatPanel({
  target,
  data,
  session,
  onChanged,
  refresh,
}: {
  target: Extract<PanelTarget, { kind: 'seat' }>;
  refresh: number;
  data: BoardData;
  session: Session;
  onChanged: () => void;
}) {
  const { assignmentId, date } = target;
  const [value, reload] = useLoad(
    () => call(client.GET('/v1/vacancies/candidates', { params: { query: { assignment_id: assignmentId, date } } })),
    [assignmentId, date],
    refresh,
  );
  const action = useAction();
  useEffect(() => action.setDone(target.note ?? null), [target]);

  const fill = (vacancy: Vacancy, person: { id: number; name: string }) =>
    action.run(async () => {
      const work_type_id = await workTypeFor(data, assignmentId);
      try {
        await call(
          client.POST('/v1/shifts', {
            body: {
              assignment_id: assignmentId,
              user_id: person.id,
              date,
              start: vacancy.short_from ?? vacancy.start,
              end: vacancy.short_until ?? vacancy.end,
              work_type_id,
              admin_id: session.user.id,
              // the seat as the panel read it: refused (409) once someone else has filled it meanwhile
              for_vacancy: { date: vacancy.date, start: vacancy.start, end: vacancy.end },
            },
          }),
        );
      } catch (failure) {
        // refused as stale: the board and the panel read again, the refusal stays shown
        if (failure instanceof ApiError && failure.status === 409) {
          onChanged();
          reload();
        }
        throw failure;
      }
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
