import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { Type } from '@sinclair/typebox';
import escapeHtml from 'escape-html';
import { keyedHash } from '../../../core/auth/secrets.js';
import { nowUtc, utcToLocal } from '../../../core/time.js';
import { findUsersByIds } from '../../users/repository.js';
import { fullName } from '../../users/serialize.js';
import { answerOffer, logRefusal, refusalOf, type Refusal } from './offers.js';
import { listNames } from '../../lists/repository.js';
import { findOrganizationOrThrow } from '../../organizations/repository.js';
import { findCallbackOrThrow, findOfferByTokenHash } from '../repository.js';
import type { CallbackOfferRow } from '../table.js';

const OfferParams = Type.Object({ token: Type.String({ maxLength: 200 }) });
const AnswerBody = Type.Object({ answer: Type.Union([Type.Literal('accept'), Type.Literal('decline')]) });

function page(title: string, body: string): string {
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">' +
    `<title>${escapeHtml(title)}</title>` +
    '<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:2rem auto;padding:0 1rem}' +
    'button{font-size:1.1rem;padding:.6rem 1.4rem;margin-right:1rem}</style>' +
    `</head><body><h1>${escapeHtml(title)}</h1>${body}</body></html>`
  );
}

const send = (reply: FastifyReply, status: number, html: string) =>
  reply
    .status(status)
    .type('text/html; charset=utf-8')
    .header('Cache-Control', 'no-store')
    .header('Referrer-Policy', 'no-referrer')
    .send(html);

/**
 * The callback runner's accept/decline links, outside /v1 and its bearer hook: the unguessable,
 * single-use, expiring token is the credential (its keyed hash is stored). GET shows the offer with
 * two buttons; POST answers through the same path as an admin-recorded answer. Unknown, used,
 * withdrawn and expired links are refused with a 4xx page and logged.
 */
const offerRoutes: FastifyPluginAsync = async (app) => {
  const lookup = (token: string) => findOfferByTokenHash(app.db, keyedHash(app.config.secretKey, token));

  async function refuse(reply: FastifyReply, offer: CallbackOfferRow | undefined, refusal: Refusal, attempt: string) {
    if (!offer) app.log.warn({ attempt }, 'callback offer link refused: unknown token');
    else await logRefusal(app.db, offer, refusal, attempt, 'offer-link');
    return send(reply, refusal.status, page('Link refused', `<p>${escapeHtml(refusal.reason)}</p>`));
  }

  app.get<{ Params: { token: string } }>(
    '/offers/:token',
    { schema: { hide: true, params: OfferParams }, config: { publicRateLimit: 'offers' } },
    async (request, reply) => {
      const chosen = (request.query as { answer?: string }).answer;
      const offer = await lookup(request.params.token);
      const refusal = refusalOf(offer, nowUtc());
      if (refusal || !offer) return refuse(reply, offer, refusal!, 'view');
      const [org, callback] = await Promise.all([
        findOrganizationOrThrow(app.db, offer.organization_id),
        findCallbackOrThrow(app.db, offer.organization_id, offer.callback_id),
      ]);
      const [lists, users] = await Promise.all([
        listNames(app.db, org.id, [callback.list_id]),
        findUsersByIds(app.db, org.id, [offer.user_id]),
      ]);
      const user = users.get(offer.user_id);
      const body = [
        `<p>${escapeHtml(user ? fullName(user) : '')}, ${escapeHtml(org.name)} offers you a callback on ` +
          `${escapeHtml(lists[0]?.name ?? '')}:</p>`,
        `<p><strong>${escapeHtml(callback.start)} to ${escapeHtml(callback.end)}</strong></p>`,
        callback.notes ? `<p>${escapeHtml(callback.notes)}</p>` : '',
        `<p>Answer by ${escapeHtml(utcToLocal(offer.expires_at, org.timezone))}.</p>`,
        // ?answer=… (a push notification's action): that button has the focus
        `<form method="post"><button name="answer" value="accept"${chosen === 'accept' ? ' autofocus' : ''}>` +
          `Accept</button><button name="answer" value="decline"${chosen === 'decline' ? ' autofocus' : ''}>` +
          'Decline</button></form>',
      ].join('');
      return send(reply, 200, page('Callback offer', body));
    },
  );

  app.post<{ Params: { token: string }; Body: { answer: 'accept' | 'decline' } }>(
    '/offers/:token',
    { schema: { hide: true, params: OfferParams, body: AnswerBody }, config: { publicRateLimit: 'offers' } },
    async (request, reply) => {
      const { answer } = request.body;
      const offer = await lookup(request.params.token);
      if (!offer) return refuse(reply, offer, refusalOf(offer, nowUtc())!, answer);
      const refusal = await answerOffer(app.db, offer, answer, 'offer-link', nowUtc());
      if (refusal) return send(reply, refusal.status, page('Link refused', `<p>${escapeHtml(refusal.reason)}</p>`));
      const text =
        answer === 'accept'
          ? 'You accepted the callback. A confirmation follows by e-mail.'
          : 'You declined the callback. Thank you for answering.';
      return send(reply, 200, page(answer === 'accept' ? 'Accepted' : 'Declined', `<p>${escapeHtml(text)}</p>`));
    },
  );
};

export default offerRoutes;
