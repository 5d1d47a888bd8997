import { call, client } from '../api';
import { Loaded } from '../components';
import { span } from '../dates';
import { useLoad } from '../hooks';
import type { TradeOffer } from '../types';
import { Outcome, useAction } from './panel/action';

/** "Olga Owner's shift" or, for a swap, "Olga Owner's shift, for yours of …". */
function offerWords(offer: TradeOffer): string {
  const swap = offer.swap_start && offer.swap_end ? `, for yours of ${span(offer.swap_start, offer.swap_end)}` : '';
  return `${offer.requesting_user.name}: ${span(offer.start, offer.end)}${swap}`;
}

/**
 * Trades offered to me (members, made for a phone): the open trades whose offered people name the
 * user (GET /users/{me}/trade_offers), each with Accept and Decline (POST
 * /users/{me}/trade_offers/{id}); one the user accepted waits for an admin's approval. Live: it
 * reads again at each `refresh` (a change heard on GET /v1/changes), so a trade offered meanwhile
 * shows without navigation.
 */
export function TradeOffers({ userId, changed, refresh }: { userId: number; changed: () => void; refresh: number }) {
  const [value, reload] = useLoad(
    () => call(client.GET('/v1/users/{user_id}/trade_offers', { params: { path: { user_id: userId } } })),
    [userId],
    refresh,
  );
  const action = useAction();
  const answer = (offer: TradeOffer, choice: 'accept' | 'decline') =>
    void action.run(async () => {
      try {
        const result = await call(
          client.POST('/v1/users/{user_id}/trade_offers/{id}', {
            params: { path: { user_id: userId, id: offer.id } },
            body: { answer: choice },
          }),
        );
        return result.message;
      } finally {
        reload();
        changed();
      }
    });
  return (
    <section aria-labelledby="trade-offers-title">
      <h2 id="trade-offers-title">Trades offered to me</h2>
      <Outcome done={action.done} error={action.error} />
      <Loaded value={value} what="the trades offered to you" retry={reload}>
        {(offers) =>
          offers.length === 0 ? (
            <p>No trade is offered to you.</p>
          ) : (
            <ul class="cards trade-offers">
              {offers.map((offer) => (
                <li class="card" key={offer.id} data-trade={offer.id}>
                  <p class="card-title" id={`trade-offer-${offer.id}`}>
                    {offerWords(offer)}
                  </p>
                  {offer.notes && <p>{offer.notes}</p>}
                  {offer.answer === 'accepted' ? (
                    <p>You accepted it; an admin approves it.</p>
                  ) : (
                    <p class="actions">
                      <button
                        type="button"
                        class="primary"
                        aria-disabled={action.busy}
                        aria-describedby={`trade-offer-${offer.id}`}
                        onClick={() => answer(offer, 'accept')}
                      >
                        Accept
                      </button>{' '}
                      <button
                        type="button"
                        aria-disabled={action.busy}
                        aria-describedby={`trade-offer-${offer.id}`}
                        onClick={() => answer(offer, 'decline')}
                      >
                        Decline
                      </button>
                    </p>
                  )}
                </li>
              ))}
            </ul>
          )
        }
      </Loaded>
    </section>
  );
}
