import { createHash } from 'node:crypto';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import escapeHtml from 'escape-html';
import { conflict, forbidden, unauthorized, type ApiError } from '../../../core/errors.js';
import { succeeded } from '../../../core/schemas.js';
import { nowUtc, Temporal } from '../../../core/time.js';
import { SIGNATURE_HEADER, TIMESTAMP_HEADER, verifySignature } from '../../webhooks/signature.js';
import { e164, organizationsOfSender, readReply, sameSecret, twilioSignature } from './sms.js';
import { answerOffer } from '../offers/offers.js';
import { listOpenOffersByReplyAddress } from '../repository.js';
import { recordInboundMessage } from './repository.js';

const TWILIO_HEADER = 'x-twilio-signature';
/** A generic provider's signed timestamp may be this old (seconds), so a captured request cannot be replayed later. */
const MAX_SKEW_SECONDS = 300;
const BODY_TYPES = ['application/x-www-form-urlencoded', 'application/json'];
/** How long the key of a handled message is kept to refuse its replay (Twilio's signature has no timestamp). */
const REPLAY_MEMORY_DAYS = 7;
const HOW_TO_ANSWER = 'Reply YES or NO followed by the code in the text of the offer, for example YES 1234.';

type Params = Record<string, string | string[]>;

function formParams(raw: string): Params {
  const params: Params = {};
  for (const [key, value] of new URLSearchParams(raw)) {
    const seen = params[key];
    params[key] = seen === undefined ? value : [...(Array.isArray(seen) ? seen : [seen]), value];
  }
  return params;
}

const first = (value: unknown) => (Array.isArray(value) ? value[0] : value);

/**
 * Inbound SMS replies (docs/workflows.md, "SMS"): the provider posts each text a person sends to
 * SMS_FROM here. No bearer token: the provider's signature is the credential. Twilio
 * (`SMS_PROVIDER=twilio`) signs with `X-Twilio-Signature` (HMAC-SHA1 of this URL and the sorted
 * form parameters, keyed with SMS_AUTH_TOKEN); a generic provider signs as crewplan's webhooks do
 * (`X-Crewplan-Signature: v1=` HMAC-SHA256 of `timestamp.body` with SMS_INBOUND_SECRET,
 * `X-Crewplan-Timestamp`). Unsigned requests get 401, badly signed ones 403, both logged; a signed
 * request seen before (the provider's message id, or the signed request's hash) gets 409. A YES or
 * NO with an offer's reply code answers that open offer texted to the sender's number, as its link
 * would; a reply to an organization's own number (SMS_FROM_BY_ORGANIZATION) only its offers.
 */
const smsRoutes: FastifyPluginAsync = async (app) => {
  const settings = app.config.sms;
  // the signature covers the body as sent: read it as text here, parse it after checking
  app.removeContentTypeParser(BODY_TYPES);
  app.addContentTypeParser(BODY_TYPES, { parseAs: 'string', bodyLimit: 64 * 1024 }, (_request, body, done) =>
    done(null, body),
  );

  function refuse(request: FastifyRequest, error: ApiError): never {
    app.log.warn({ reqId: request.id, ip: request.ip, reason: error.message }, 'inbound SMS refused');
    throw error;
  }

  /** The URL the provider requested, as it signed it: PUBLIC_BASE_URL when set, else this request's host. */
  const requestedUrl = (request: FastifyRequest) =>
    `${app.config.publicBaseUrl ?? `${request.protocol}://${request.host}`}${request.url}`;

  /** What identifies one inbound message: Twilio's MessageSid, else the hash of the signed request. */
  function messageKey(request: FastifyRequest, raw: string, params: Params): string {
    const sid = first(params.MessageSid ?? params.SmsSid);
    if (settings.provider === 'twilio' && typeof sid === 'string' && sid)
      return `twilio:${String(first(params.AccountSid) ?? '')}:${sid}`;
    const signature = request.headers[settings.provider === 'twilio' ? TWILIO_HEADER : SIGNATURE_HEADER];
    const signed = `${String(request.headers[TIMESTAMP_HEADER] ?? '')}.${String(signature)}.${raw}`;
    return `signed:${createHash('sha256').update(signed).digest('hex')}`;
  }

  /** Refuses a signed request handled before (a replay): one winner under parallel copies. */
  async function claimMessage(request: FastifyRequest, raw: string, params: Params, now: string): Promise<void> {
    const forget = Temporal.Instant.from(now)
      .subtract({ hours: 24 * REPLAY_MEMORY_DAYS })
      .toString();
    if (!(await recordInboundMessage(app.db, messageKey(request, raw, params), now, forget)))
      refuse(request, conflict('This message was received before: a replayed request is not answered again.'));
  }

  function verified(request: FastifyRequest, raw: string): Params {
    const json = (request.headers['content-type'] ?? '').includes('json');
    if (settings.provider === 'twilio') {
      const signature = request.headers[TWILIO_HEADER];
      if (typeof signature !== 'string' || !signature)
        refuse(request, unauthorized('The request is not signed: the X-Twilio-Signature header is missing.'));
      if (!settings.authToken) refuse(request, forbidden('Inbound SMS is off: no SMS_AUTH_TOKEN is configured.'));
      const params = json ? {} : formParams(raw);
      if (!sameSecret(twilioSignature(settings.authToken, requestedUrl(request), params), signature))
        refuse(request, forbidden('The X-Twilio-Signature does not match the request.'));
      return params;
    }
    const signature = request.headers[SIGNATURE_HEADER];
    const timestamp = Number(request.headers[TIMESTAMP_HEADER]);
    if (typeof signature !== 'string' || !signature || !Number.isInteger(timestamp))
      refuse(
        request,
        unauthorized(
          'The request is not signed: the X-Crewplan-Signature and X-Crewplan-Timestamp headers are required.',
        ),
      );
    if (!settings.inboundSecret) refuse(request, forbidden('Inbound SMS is off: no SMS_INBOUND_SECRET is configured.'));
    if (Math.abs(Date.now() / 1000 - timestamp) > MAX_SKEW_SECONDS)
      refuse(request, forbidden('The X-Crewplan-Timestamp is more than 5 minutes away from the server clock.'));
    if (!verifySignature(settings.inboundSecret, timestamp, raw, signature))
      refuse(request, forbidden('The X-Crewplan-Signature does not match the request.'));
    if (!json) return formParams(raw);
    try {
      const parsed = JSON.parse(raw) as unknown;
      return parsed && typeof parsed === 'object' ? (parsed as Params) : {};
    } catch {
      return {};
    }
  }

  /** The text back to the person: TwiML for Twilio (it sends the message), JSON for a generic provider. */
  function answer(reply: FastifyReply, text: string) {
    if (settings.provider === 'twilio')
      return reply
        .type('text/xml; charset=utf-8')
        .send(`<?xml version="1.0" encoding="UTF-8"?><Response><Message>${escapeHtml(text)}</Message></Response>`);
    return reply.send(succeeded({ message: text }));
  }

  app.post('/sms/inbound', { schema: { hide: true }, config: { publicRateLimit: 'sms' } }, async (request, reply) => {
    const raw = typeof request.body === 'string' ? request.body : '';
    const params = verified(request, raw);
    const now = nowUtc();
    await claimMessage(request, raw, params, now);
    const from = e164(String(first(params.From ?? params.from) ?? ''), settings.defaultCountry);
    const to = e164(String(first(params.To ?? params.to) ?? ''), settings.defaultCountry);
    const { answer: choice, code } = readReply(String(first(params.Body ?? params.text ?? params.body) ?? ''));
    const open = from ? await listOpenOffersByReplyAddress(app.db, from, organizationsOfSender(settings, to), now) : [];
    if (open.length === 0) {
      app.log.info({ reqId: request.id }, 'inbound SMS: no open callback offer for the sender');
      return answer(reply, 'You have no open callback offer.');
    }
    if (!code) return answer(reply, HOW_TO_ANSWER);
    const matching = open.filter((offer) => offer.reply_code === code);
    if (matching.length === 0) return answer(reply, `No open callback offer has the code ${code}. ${HOW_TO_ANSWER}`);
    if (matching.length > 1)
      return answer(reply, `Several open offers have the code ${code}: answer with the link in the text of the offer.`);
    if (!choice) return answer(reply, `Reply YES ${code} to accept the callback or NO ${code} to decline it.`);
    const refusal = await answerOffer(app.db, matching[0]!, choice, 'sms-reply', now);
    if (refusal) return answer(reply, `Your answer was not recorded: ${refusal.reason}`);
    return answer(
      reply,
      choice === 'accept'
        ? 'You accepted the callback. A confirmation follows by e-mail.'
        : 'You declined the callback. Thank you for answering.',
    );
  });
};

export default smsRoutes;
