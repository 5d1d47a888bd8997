import { useEffect, useRef, useState } from 'preact/hooks';
import { call, client, type Session } from '../../api';
import { ErrorBox, Loaded } from '../../components';
import { span } from '../../dates';
import { useLoad } from '../../hooks';
import { useChangeCount } from '../../live';
import type { TimeOffEntry, TimeOffImpact } from '../../types';
import { loadPendingQueue } from './queue-data';
import { useAction } from '../../hooks';
import { hours, requestDate } from './shared';

/** The engine's verdict on approving: each occurrence it changes, `n of m` before and after, seats and qualifiers short. */
function Impact({ impact }: { impact: TimeOffImpact }) {
  if (impact.assignments.length === 0) return <p class="impact">Staffing: no change (not on duty those days).</p>;
  const short = impact.seats_opened > 0 || impact.new_vacancies > 0;
  return (
    <div class={`impact${short ? ' short' : ''}`}>
      <p>
        Staffing if approved:{' '}
        {short
          ? `opens ${impact.seats_opened} seat${impact.seats_opened === 1 ? '' : 's'}, ${impact.new_vacancies} new ${impact.new_vacancies === 1 ? 'vacancy' : 'vacancies'}`
          : 'stays at minimum'}
      </p>
      <ul>
        {impact.assignments.map((change) => (
          <li key={`${change.assignment.id}-${change.date}`}>
            {change.assignment.name} · {change.date}: {change.before.scheduled} → {change.after.scheduled} of{' '}
            {change.after.needed}
            {change.after.open > 0 && <strong> · {change.after.open} open</strong>}
            {change.after.qualifier_shortfalls.map((q) => (
              <strong key={q.id}>
                {' '}
                · {q.shortcode} {q.have} of {q.needed}
              </strong>
            ))}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** For admins: the pending requests with what a decision needs, Approve and Deny. */
export function AdminQueue({ session }: { session: Session }) {
  // read again whenever anything of the organization changes (GET /v1/changes): a member's new request shows at once
  const [changes] = useChangeCount();
  const [value, reload] = useLoad(loadPendingQueue, [], changes);
  const [error, act, busy] = useAction(reload);
  const [decided, setDecided] = useState<string | null>(null);
  // the card decided on leaves the queue: keyboard focus goes on to the card in its place (its
  // Approve button), or to the queue's heading when it was the last
  const next = useRef<number | null>(null);
  const list = useRef<HTMLUListElement>(null);
  useEffect(() => {
    if (value.state !== 'ready' || next.current === null) return;
    const buttons = list.current?.querySelectorAll<HTMLButtonElement>('li.card button.primary') ?? [];
    const target = buttons[Math.min(next.current, buttons.length - 1)];
    (target ?? document.getElementById('queue-title'))?.focus();
    next.current = null;
  }, [value]);
  const decide = (entry: TimeOffEntry, decision: 'approve' | 'deny', index: number) => {
    if (busy) return;
    setDecided(null);
    void act(async () => {
      const params = { path: { id: Number(entry.id) } };
      const body = { admin_id: session.user.id };
      await call(
        decision === 'approve'
          ? client.POST('/v1/time_offs/{id}/approve', { params, body })
          : client.POST('/v1/time_offs/{id}/deny', { params, body }),
      );
      next.current = index;
      setDecided(
        `${decision === 'approve' ? 'Approved' : 'Denied'}: ${entry.time_off_type.name} for ${entry.user.name}.`,
      );
    });
  };
  return (
    <section aria-labelledby="queue-title">
      <h2 id="queue-title" tabIndex={-1}>
        Requests waiting for a decision
      </h2>
      <div aria-live="polite">
        {decided && (
          <p class="done" role="status">
            {decided}
          </p>
        )}
      </div>
      {error && <ErrorBox message={error} />}
      <Loaded value={value} what="the time off queue" retry={reload}>
        {(entries) =>
          entries.length === 0 ? (
            <p>No pending requests.</p>
          ) : (
            <ul class="cards queue" aria-busy={busy} ref={list}>
              {entries.map(({ entry, start, end, hours: requested, balance, others, impact }, index) => (
                <li class="card" key={entry.id} data-time-off={entry.id}>
                  <p class="card-title">
                    {entry.user.name} · {entry.time_off_type.name}
                  </p>
                  <p>
                    {span(start, end)} · {hours(requested)}
                  </p>
                  <p class="requested">Requested {requestDate(entry.request_date)}</p>
                  <p class="balance">
                    {balance === null
                      ? `No ${entry.time_off_type.name} bank`
                      : `${entry.time_off_type.name} balance: ${hours(balance)}`}
                    {impact.bank && ` · after approval: ${hours(impact.bank.balance_after)}`}
                  </p>
                  {impact.bank && !impact.bank.allowed && (
                    <p class="overdraft">
                      <strong>Overdraft:</strong>{' '}
                      {`below the ${hours(impact.bank.floor ?? 0)} the type allows; approving it is refused.`}
                    </p>
                  )}
                  {entry.user_note && <p class="note">“{entry.user_note}”</p>}
                  <p class="others">
                    {others.length === 0
                      ? 'Nobody else is off then.'
                      : `Also off: ${others.map((o) => `${o.name} (${o.type}${o.pending ? ', pending' : ''}, ${span(o.start, o.end)})`).join('; ')}`}
                  </p>
                  <Impact impact={impact} />
                  <div class="buttons">
                    <button
                      type="button"
                      class="primary"
                      aria-disabled={busy}
                      onClick={() => decide(entry, 'approve', index)}
                      aria-label={`Approve ${entry.time_off_type.name} for ${entry.user.name}`}
                    >
                      Approve
                    </button>
                    <button
                      type="button"
                      aria-disabled={busy}
                      onClick={() => decide(entry, 'deny', index)}
                      aria-label={`Deny ${entry.time_off_type.name} for ${entry.user.name}`}
                    >
                      Deny
                    </button>
                  </div>
                </li>
              ))}
            </ul>
          )
        }
      </Loaded>
    </section>
  );
}
