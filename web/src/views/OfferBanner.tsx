import { useEffect, useState } from 'preact/hooks';
import { call, client, type Session } from '../api';
import { nowIn, span } from '../dates';
import { useChangeCount } from '../live';
import type { CallbackOffer } from '../types';

/**
 * The signed-in user's open offers, asked again at each change of the organization (GET /v1/changes),
 * every 30 seconds and after each answer.
 */
export function useOpenOffers(session: Session): [CallbackOffer[], () => void] {
  const me = session.user.id;
  const [offers, setOffers] = useState<CallbackOffer[]>([]);
  const load = () =>
    void call(client.GET('/v1/users/{user_id}/callback_offers', { params: { path: { user_id: me } } })).then(
      setOffers,
      () => undefined,
    );
  // read again whenever anything of the organization changes (GET /v1/changes): a new offer shows at once
  const [changes] = useChangeCount();
  useEffect(() => load(), [me, changes]);
  useEffect(() => {
    const timer = setInterval(load, 30_000);
    return () => clearInterval(timer);
  }, [me]);
  return [offers, load];
}

/** "12 min 5 s left" until `expiresAt` (a local datetime of the organization, as the offer gives it). */
function useCountdown(expiresAt: string, timeZone: string): string {
  const [, setTick] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setTick((n) => n + 1), 1000);
    return () => clearInterval(timer);
  }, []);
  // both local datetimes of the organization's zone: their difference is the time left
  const asUtc = (local: string) => Date.parse(`${local.replace(' ', 'T')}Z`);
  const left = Math.max(0, Math.floor((asUtc(expiresAt) - asUtc(nowIn(timeZone))) / 1000));
  const minutes = Math.floor(left / 60);
  return left === 0 ? 'time is up' : `${minutes} min ${left % 60} s left`;
}

/** The time left to answer an offer, ticking each second ("12 min 5 s left"). */
export function Countdown({ expiresAt, timeZone }: { expiresAt: string; timeZone: string }) {
  return <span class="countdown">{useCountdown(expiresAt, timeZone)}</span>;
}

/** The banner of the soonest open offer, with its countdown and Accept / Decline. */
export function OfferBanner({
  session,
  offers,
  reload,
}: {
  session: Session;
  offers: CallbackOffer[];
  reload: () => void;
}) {
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const offer = offers[0];
  const countdown = useCountdown(offer?.expires_at ?? '', session.organization.timezone);
  if (!offer)
    return notice ? (
      <p role="status" class="offer-banner">
        {notice}
      </p>
    ) : null;
  const answer = async (choice: 'accept' | 'decline') => {
    setBusy(true);
    try {
      const result = await call(
        client.POST('/v1/users/{user_id}/callback_offers/{id}', {
          params: { path: { user_id: session.user.id, id: offer.id } },
          body: { answer: choice },
        }),
      );
      setNotice(result.message);
    } catch (error) {
      setNotice((error as Error).message);
    }
    setBusy(false);
    reload();
  };
  return (
    <section class="offer-banner no-print" aria-label="Callback offer">
      <p>
        <strong>Callback offer</strong>: {offer.list.name}
        {offer.assignment ? `, ${offer.assignment.name}` : ''}, {span(offer.start, offer.end)}. Answer by{' '}
        {offer.expires_at.slice(0, 16)} (<span class="countdown">{countdown}</span>)
        {offers.length > 1 ? ` · ${offers.length - 1} more in My offers` : ''}
      </p>
      <p>
        <button type="button" disabled={busy} onClick={() => answer('accept')}>
          Accept
        </button>{' '}
        <button type="button" disabled={busy} onClick={() => answer('decline')}>
          Decline
        </button>
      </p>
      {notice && <p role="status">{notice}</p>}
    </section>
  );
}
