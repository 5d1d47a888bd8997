import type { AuthContext } from '../../../core/auth/context.js';
import { logAction } from '../../../core/audit.js';
import { countAttempt } from '../../../core/auth/attempts.js';
import { withTransaction, type Db } from '../../../core/db/transaction.js';
import { ApiError, conflict } from '../../../core/errors.js';
import { findOrganizationOrThrow } from '../../organizations/repository.js';
import { useOffer } from '../repository.js';
import { recordResponse } from '../rules.js';
import type { CallbackOfferRow } from '../table.js';

export interface Refusal {
  status: number;
  reason: string;
}

/** Why an offer can no longer be answered, or null when it can. */
export function refusalOf(offer: CallbackOfferRow | undefined, now: string): Refusal | null {
  if (!offer) return { status: 404, reason: 'This link is not valid.' };
  if (offer.used_at) return { status: 410, reason: 'This link has already been used.' };
  if (offer.revoked_at)
    return {
      status: 410,
      reason: offer.revoked_by !== null ? 'This link has been revoked.' : 'This offer has been withdrawn.',
    };
  if (offer.expires_at <= now) return { status: 410, reason: 'This offer has expired.' };
  return null;
}

/** The offer's organization as the actor of what its link or reply does (no API client involved). */
export async function offerAuth(db: Db, offer: CallbackOfferRow, clientId: string): Promise<AuthContext> {
  const org = await findOrganizationOrThrow(db, offer.organization_id);
  return { orgId: org.id, orgName: org.name, timezone: org.timezone, clientId, credentialId: 0 };
}

/** A refused offer is written to the log once per this window, however often its link is tried. */
const REFUSAL_LOG_WINDOW_MS = 60 * 60_000;

/**
 * Writes a refused use of an offer (link or SMS reply) to the organization's log (and so its
 * webhook outbox): the first refusal of the offer in each hour only, so that anonymous requests
 * to a used or expired link cannot fill the log. Counted in the database, across processes.
 */
export async function logRefusal(
  db: Db,
  offer: CallbackOfferRow,
  refusal: Refusal,
  attempt: string,
  clientId: string,
): Promise<void> {
  const count = await countAttempt(db, `offer-refusal:${offer.id}`, { max: 1, windowMs: REFUSAL_LOG_WINDOW_MS });
  if (!count.allowed) return;
  const auth = await offerAuth(db, offer, clientId);
  const via = clientId === 'sms-reply' ? 'an SMS reply to' : clientId === 'board' ? 'a board answer to' : 'a';
  await withTransaction(db, (trx) =>
    logAction(trx, auth, 'callback.offer_refused', offer.callback_id, {
      description:
        `refused ${via} callback #${offer.callback_id} offer link of user #${offer.user_id} (${attempt}): ` +
        refusal.reason,
      after: { offer_id: offer.id, user_id: offer.user_id, attempt, reason: refusal.reason },
    }),
  );
}

/**
 * Answers an open offer as its person: marks it used (single use) and records the answer through
 * the same path as POST /callbacks/{id}/users (one winner per position, the shift placed at once).
 * Answers the refusal when it cannot be used, after logging it.
 */
export async function answerOffer(
  db: Db,
  offer: CallbackOfferRow,
  answer: 'accept' | 'decline',
  clientId: 'offer-link' | 'sms-reply' | 'board',
  now: string,
): Promise<Refusal | null> {
  const refusal = refusalOf(offer, now);
  if (refusal) {
    await logRefusal(db, offer, refusal, answer, clientId);
    return refusal;
  }
  const auth = await offerAuth(db, offer, clientId);
  try {
    await withTransaction(db, async (trx) => {
      if (!(await useOffer(trx, offer, now))) throw conflict('This link has already been used.');
      await recordResponse(trx, auth, offer.callback_id, {
        user_id: offer.user_id,
        status: answer === 'accept' ? 'accepted' : 'denied',
      });
    });
    return null;
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const failed = { status: error.statusCode === 404 ? 410 : error.statusCode, reason: error.message };
    await logRefusal(db, offer, failed, answer, clientId);
    return failed;
  }
}
