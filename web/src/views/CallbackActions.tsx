import { useState } from 'preact/hooks';
import { call, client, type Session } from '../api';
import type { CallbackUser } from '../types';

type Notice = { kind: 'status' | 'alert'; text: string } | null;

/** Runs one admin action, then says what happened and reloads the callbacks. */
function useAction(reload: () => void): [Notice, boolean, (action: () => Promise<{ message: string }>) => void] {
  const [notice, setNotice] = useState<Notice>(null);
  const [busy, setBusy] = useState(false);
  const run = async (action: () => Promise<{ message: string }>) => {
    setBusy(true);
    try {
      setNotice({ kind: 'status', text: (await action()).message });
    } catch (error) {
      setNotice({ kind: 'alert', text: (error as Error).message });
    }
    setBusy(false);
    reload();
  };
  return [notice, busy, (action) => void run(action)];
}

/** Cancel (admins): the callback stops, shifts already accepted stay. */
export function CancelCallback({ id, session, reload }: { id: number; session: Session; reload: () => void }) {
  const [notice, busy, run] = useAction(reload);
  return (
    <p>
      <button
        type="button"
        disabled={busy}
        onClick={() =>
          confirm('Cancel this callback? Shifts already accepted stay.') &&
          run(() =>
            call(
              client.POST('/v1/callbacks/{id}/cancel', {
                params: { path: { id } },
                body: { admin_id: session.user.id },
              }),
            ),
          )
        }
      >
        Cancel callback
      </button>
      {notice && <span role={notice.kind}> {notice.text}</span>}
    </p>
  );
}

/** A person's row actions (admins): an answer given by phone, or the offer sent again. */
export function ContactActions(props: {
  callbackId: number;
  contact: CallbackUser;
  name: string;
  session: Session;
  reload: () => void;
}) {
  const { callbackId, contact, name, session, reload } = props;
  const [notice, busy, run] = useAction(reload);
  const userId = Number(contact.id);
  const answer = (status: 'accepted' | 'denied') =>
    run(() =>
      call(
        client.POST('/v1/callbacks/{id}/users', {
          params: { path: { id: callbackId } },
          body: { user_id: userId, status, contact_method: 'Phone' },
        }),
      ),
    );
  const resend = () =>
    run(() =>
      call(
        client.POST('/v1/callbacks/{id}/users/{user_id}/resend', {
          params: { path: { id: callbackId, user_id: userId } },
          body: { admin_id: session.user.id },
        }),
      ),
    );
  const open = contact.status === 'pending' || contact.status === 'no answer';
  if (!open) return null;
  return (
    <>
      <button type="button" disabled={busy} aria-label={`${name} accepted by phone`} onClick={() => answer('accepted')}>
        Accepted by phone
      </button>{' '}
      <button type="button" disabled={busy} aria-label={`${name} declined by phone`} onClick={() => answer('denied')}>
        Declined by phone
      </button>
      {contact.contact_time !== null && (
        <>
          {' '}
          <button type="button" disabled={busy} aria-label={`Re-send the offer to ${name}`} onClick={resend}>
            Re-send
          </button>
        </>
      )}
      {notice && <span role={notice.kind}> {notice.text}</span>}
    </>
  );
}
