import { useEffect, useState } from 'preact/hooks';
import { call, client, type Session } from '../api';
import { Loaded } from '../components';
import { span } from '../dates';
import { useLoad } from '../hooks';
import { useChangeCount } from '../live';
import { pushState, subscribePush, unsubscribePush, type PushState } from '../push';
import type { CallbackOffer } from '../types';
import { Countdown } from './OfferBanner';

type Offer = CallbackOffer;

type Notice = { kind: 'status' | 'alert'; text: string } | null;

const PUSH_TEXT: Record<PushState, string> = {
  unsupported: 'This browser cannot receive push notifications; offers come by e-mail or text.',
  off: 'Push notifications are not set up on this server.',
  denied: 'Notifications are blocked for this site in the browser settings.',
  subscribed: 'This device gets your callback offers as notifications.',
  'not-subscribed': 'Get your callback offers on this device as notifications.',
};

/** Turning push on and off for this device (the installed board, docs/webapp.md). */
function PushCard({ userId }: { userId: number }) {
  const [state, setState] = useState<{ state: PushState; id?: number } | null>(null);
  const [notice, setNotice] = useState<Notice>(null);
  const refresh = () =>
    pushState(userId).then(setState, (error: Error) => setNotice({ kind: 'alert', text: error.message }));
  useEffect(() => {
    void refresh();
  }, [userId]);
  const act = async (action: () => Promise<void>, done: string) => {
    try {
      await action();
      setNotice({ kind: 'status', text: done });
    } catch (error) {
      setNotice({ kind: 'alert', text: (error as Error).message });
    }
    await refresh();
  };
  return (
    <section class="card" aria-labelledby="push-title">
      <h2 id="push-title">Notifications</h2>
      {state && <p>{PUSH_TEXT[state.state]}</p>}
      {state?.state === 'not-subscribed' && (
        <button type="button" onClick={() => act(() => subscribePush(userId), 'Notifications are on.')}>
          Notify me on this device
        </button>
      )}
      {state?.state === 'subscribed' && state.id !== undefined && (
        <button type="button" onClick={() => act(() => unsubscribePush(userId, state.id!), 'Notifications are off.')}>
          Stop
        </button>
      )}
      {notice && <p role={notice.kind}>{notice.text}</p>}
    </section>
  );
}

/** "My offers": the callback offers the signed-in user can still answer, with the link's Accept and Decline. */
export function Offers({ session }: { session: Session }) {
  const me = session.user.id;
  // read again whenever anything of the organization changes (GET /v1/changes): a new offer is listed at once
  const [changes] = useChangeCount();
  const [value, reload] = useLoad(
    () => call(client.GET('/v1/users/{user_id}/callback_offers', { params: { path: { user_id: me } } })),
    [me],
    changes,
  );
  const [notice, setNotice] = useState<Notice>(null);
  const [busy, setBusy] = useState(false);
  const answer = async (offer: Offer, choice: 'accept' | 'decline') => {
    setBusy(true);
    try {
      const result = await call(
        client.POST('/v1/users/{user_id}/callback_offers/{id}', {
          params: { path: { user_id: me, id: offer.id } },
          body: { answer: choice },
        }),
      );
      setNotice({ kind: 'status', text: result.message });
    } catch (error) {
      setNotice({ kind: 'alert', text: (error as Error).message });
    }
    setBusy(false);
    reload();
  };
  return (
    <section aria-labelledby="offers-title">
      <h1 id="offers-title">My offers</h1>
      {notice && <p role={notice.kind}>{notice.text}</p>}
      <Loaded value={value} what="your offers" retry={reload}>
        {(offers) =>
          offers.length === 0 ? (
            <p>No open callback offers.</p>
          ) : (
            <ul class="cards">
              {offers.map((offer) => (
                <li class="card" key={offer.id} aria-labelledby={`offer-${offer.id}`}>
                  <p class="card-title" id={`offer-${offer.id}`}>
                    {offer.list.name}
                    {offer.assignment ? `, ${offer.assignment.name}` : ''}: {span(offer.start, offer.end)}
                  </p>
                  {offer.notes && <p>{offer.notes}</p>}
                  <p>
                    Answer by {offer.expires_at.slice(0, 16)} (
                    <Countdown expiresAt={offer.expires_at} timeZone={session.organization.timezone} />)
                  </p>
                  <p>
                    <button
                      type="button"
                      disabled={busy}
                      aria-describedby={`offer-${offer.id}`}
                      onClick={() => answer(offer, 'accept')}
                    >
                      Accept
                    </button>{' '}
                    <button
                      type="button"
                      disabled={busy}
                      aria-describedby={`offer-${offer.id}`}
                      onClick={() => answer(offer, 'decline')}
                    >
                      Decline
                    </button>
                  </p>
                </li>
              ))}
            </ul>
          )
        }
      </Loaded>
      <PushCard userId={me} />
    </section>
  );
}
