import { useState } from 'preact/hooks';
import { call, client, type Session } from '../api';
import { Loaded } from '../components';
import { useLoad } from '../hooks';
import type { CallbackDecisionRecord, UserCallbackDecisions } from '../types';

type Line = CallbackDecisionRecord['decisions'][number]['lines'][number];

/** A verdict in words: `#2`, `skipped: lacks PM`, `offered by Email`. */
function verdictText(line: { verdict: string; position: number | null; reason: string | null }): string {
  if (line.verdict === 'candidate') return `#${line.position}`;
  const verdict = line.verdict.replace(/_/g, ' ');
  return line.reason ? `${verdict}: ${line.reason}` : verdict;
}

function StartTable({ lines }: { lines: Line[] }) {
  return (
    <table class="contacts decisions">
      <caption>At the start</caption>
      <thead>
        <tr>
          <th scope="col">Who</th>
          <th scope="col">Verdict</th>
          <th scope="col">Hours charged</th>
          <th scope="col">Last offered</th>
          <th scope="col">Hired</th>
        </tr>
      </thead>
      <tbody>
        {lines.map((line) => (
          <tr key={line.user.id}>
            <td>{line.user.name}</td>
            <td>{verdictText(line)}</td>
            <td>{line.inputs?.hours_charged ?? '—'}</td>
            <td>{line.inputs?.last_offered ?? 'never'}</td>
            <td>{line.inputs?.date_of_hire ?? '—'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The whole record of one callback (admins): the start, each pass and answer, the contacts. */
function AdminRecord({ id }: { id: number }) {
  const [value, reload] = useLoad(
    () => call(client.GET('/v1/callbacks/{id}/decisions', { params: { path: { id } } })),
    [id],
  );
  return (
    <Loaded value={value} what="decision record" retry={reload}>
      {(record) => {
        const start = record.decisions.find((d) => d.kind === 'start');
        const later = record.decisions.filter((d) => d.kind !== 'start');
        return (
          <>
            {start ? (
              <>
                <p>
                  Ordered by {start.ordering}; rules{' '}
                  <code title={start.rules_hash ?? ''}>{start.rules_hash?.slice(0, 12)}</code>
                </p>
                <StartTable lines={start.lines} />
              </>
            ) : (
              <p>No record: this callback started before decision records were kept.</p>
            )}
            {later.length > 0 && (
              <ul>
                {later.flatMap((decision) =>
                  decision.lines.map((line, i) => (
                    <li key={`${decision.id}-${i}`}>
                      {decision.at} · {decision.kind} · {line.user.name}: {verdictText(line)}
                    </li>
                  )),
                )}
              </ul>
            )}
            {record.contacts.length > 0 && (
              <ul aria-label="Messages">
                {record.contacts.map((contact, i) => (
                  <li key={i}>
                    {contact.at} · {contact.user.name} · {contact.channel}: {contact.result}
                    {contact.receipt ? ` (${contact.receipt})` : ''}
                    {contact.detail ? ` — ${contact.detail}` : ''}
                  </li>
                ))}
              </ul>
            )}
          </>
        );
      }}
    </Loaded>
  );
}

/** A member's own lines on one callback: "why wasn't I called?". */
function MyLines({ id, userId }: { id: number; userId: number }) {
  const [value, reload] = useLoad(
    () =>
      call(client.GET('/v1/users/{user_id}/callback_decisions', { params: { path: { user_id: userId } } })).then(
        (all: UserCallbackDecisions) => all.lines.filter((line) => line.callback_id === id).reverse(),
      ),
    [id, userId],
  );
  return (
    <Loaded value={value} what="your lines" retry={reload}>
      {(lines) =>
        lines.length === 0 ? (
          <p>You were not on this callback's list.</p>
        ) : (
          <ul>
            {lines.map((line) => (
              <li key={`${line.decision_id}-${line.verdict}`}>
                {line.at} · {line.kind}: {verdictText(line)}
              </li>
            ))}
          </ul>
        )
      }
    </Loaded>
  );
}

/** The decision record of a callback, loaded when opened: all of it for admins, their own lines for members. */
export function CallbackDecisions({ id, session }: { id: number; session: Session }) {
  const [open, setOpen] = useState(false);
  return (
    <details onToggle={(event) => setOpen((event.currentTarget as HTMLDetailsElement).open)}>
      <summary>{session.user.is_admin ? 'Decision record' : 'Why (not) me?'}</summary>
      {open && (session.user.is_admin ? <AdminRecord id={id} /> : <MyLines id={id} userId={session.user.id} />)}
    </details>
  );
}
