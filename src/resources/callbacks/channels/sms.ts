import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';
import type { SmsSettings } from '../../../config.js';
import type { Db } from '../../../core/db/transaction.js';
import type { Channel, Held, Message, Recipient } from './channel.js';
import { TextPacer } from './text-pacing.js';

export const SMS_OFF =
  'No SMS provider is configured (SMS_URL and SMS_FROM, ' +
  'or SMS_PROVIDER=twilio with SMS_ACCOUNT_SID, SMS_AUTH_TOKEN and SMS_FROM).';

/**
 * A phone number in E.164 (`+15551234567`), numbers without a country code read in `country`;
 * undefined when not a number.
 */
export function e164(text: string, country: string): string | undefined {
  const parsed = parsePhoneNumberFromString(text, country as CountryCode);
  return parsed?.isPossible() ? parsed.number : undefined;
}

/** The person's first phone number that is a possible number, in E.164. */
export function mobileOf(recipient: Recipient, country: string): string | undefined {
  const numbers = JSON.parse(recipient.phone_numbers || '[]') as unknown[];
  for (const number of numbers) {
    const normalized = typeof number === 'string' ? e164(number, country) : undefined;
    if (normalized) return normalized;
  }
  return undefined;
}

/**
 * The provider request of one text message (docs/workflows.md, "SMS"):
 * - twilio: POST the Messages API, form body `To`, `From`, `Body`, basic auth account SID : auth token;
 * - generic: POST SMS_URL, body `to`, `from`, `text` as JSON (or a form with SMS_BODY_FORMAT=form),
 *   `Authorization: Bearer SMS_AUTH_TOKEN` when a token is set (basic auth when SMS_ACCOUNT_SID is too).
 */
export function smsRequest(
  settings: SmsSettings,
  to: string,
  text: string,
  from = settings.from!,
): { url: string; init: RequestInit } {
  const twilio = settings.provider === 'twilio';
  const fields: Record<string, string> = twilio ? { To: to, From: from, Body: text } : { to, from, text };
  const headers: Record<string, string> = { accept: 'application/json' };
  if (settings.accountSid && settings.authToken)
    headers.authorization = `Basic ${Buffer.from(`${settings.accountSid}:${settings.authToken}`).toString('base64')}`;
  else if (settings.authToken) headers.authorization = `Bearer ${settings.authToken}`;
  const form = twilio || settings.bodyFormat === 'form';
  headers['content-type'] = form ? 'application/x-www-form-urlencoded' : 'application/json';
  const body = form ? new URLSearchParams(fields).toString() : JSON.stringify(fields);
  return {
    url: settings.url!,
    init: { method: 'POST', headers, body, signal: AbortSignal.timeout(settings.timeoutMs) },
  };
}

/**
 * An offer's text: its short form (which names the organization), how to answer by reply (the
 * answer and the offer's reply code) and the link; other messages as they are.
 */
export function smsText(message: Message): string {
  if (!message.link) return message.short ?? message.text;
  const how = message.replyCode
    ? `Reply YES ${message.replyCode} to accept or NO ${message.replyCode} to decline, or open`
    : 'Open';
  return `${message.short ?? message.subject} ${how} ${message.link}`;
}

/** Digits of an offer's reply code. */
export const REPLY_CODE_DIGITS = 4;

/** A random reply code (`0042`): the reply must carry it, so that it answers the one offer it names. */
export function newReplyCode(): string {
  return String(randomInt(0, 10 ** REPLY_CODE_DIGITS)).padStart(REPLY_CODE_DIGITS, '0');
}

/**
 * The number texts to the organization's people are sent from, and their replies come to: its own
 * number (SMS_FROM_BY_ORGANIZATION) when it has one, else SMS_FROM.
 */
export function senderOf(settings: SmsSettings, orgId: number): string | undefined {
  return settings.fromByOrganization[orgId] ?? settings.from;
}

/**
 * Whose offers a reply to the number `to` may answer: only the organization's whose own number it
 * is (SMS_FROM_BY_ORGANIZATION), else those of every organization without a number of its own.
 */
export function organizationsOfSender(
  settings: SmsSettings,
  to: string | undefined,
): { in: number } | { notIn: number[] } {
  const owned = Object.entries(settings.fromByOrganization);
  const found = owned.find(([, number]) => number === to);
  return found ? { in: Number(found[0]) } : { notIn: owned.map(([id]) => Number(id)) };
}

/** Text messages through the configured HTTP provider, to the person's first phone number. */
export class SmsChannel implements Channel {
  readonly method = 'Text (SMS)';
  readonly personal = true;

  /** At most one non-urgent text per person per 5 minutes (text-pacing.ts). */
  private readonly pacer: TextPacer<string | undefined>;

  constructor(
    private readonly settings: SmsSettings,
    failed: (to: string, error: unknown) => void = () => undefined,
    now?: () => number,
  ) {
    this.pacer = new TextPacer(failed, now);
  }

  async unavailable(_db: Db, _orgId: number, recipient: Recipient): Promise<string | null> {
    if (!this.settings.url) return `SMS is off: ${SMS_OFF}`;
    return this.replyAddress(recipient) ? null : 'SMS: the user has no phone number';
  }

  replyAddress(recipient: Recipient): string | undefined {
    return mobileOf(recipient, this.settings.defaultCountry);
  }

  /** The provider's message id when sent now; a held text (`Held`) gets it when the pacer sends it. */
  async send(recipient: Recipient, message: Message): Promise<string | undefined | Held> {
    if (!this.settings.url) throw new Error(SMS_OFF);
    const to = this.replyAddress(recipient);
    if (!to) throw new Error('the user has no phone number');
    const from = senderOf(this.settings, recipient.organization_id);
    const paced = await this.pacer.send(
      `${recipient.organization_id} ${recipient.id}`,
      smsText(message),
      message.urgent !== false,
      async (text) => {
        const { url, init } = smsRequest(this.settings, to, text, from);
        const response = await fetch(url, init);
        if (!response.ok) {
          const detail = (await response.text()).slice(0, 200);
          throw new Error(`the SMS provider answered ${response.status}${detail ? `: ${detail}` : ''}`);
        }
        // the provider's message id (Twilio `sid`, others `id` or `message_id`) is the delivery receipt
        const body = (await response.json().catch(() => null)) as Record<string, unknown> | null;
        const id = body?.sid ?? body?.id ?? body?.message_id;
        return typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
      },
    );
    if (paced.outcome === 'sent') return paced.result;
    return { held: true, until: new Date(paced.until).toISOString(), receipt: paced.sent };
  }

  close(): void {
    this.pacer.close();
  }
}

/**
 * Twilio's request signature (`X-Twilio-Signature`): base64 HMAC-SHA1, keyed with the auth token,
 * of the full URL Twilio requested followed by every POST parameter name and value, names sorted.
 */
export function twilioSignature(authToken: string, url: string, params: Record<string, string | string[]>): string {
  const data = Object.keys(params)
    .sort()
    .map((key) => {
      const value = params[key];
      return (Array.isArray(value) ? [...value].sort() : [value]).map((v) => key + v).join('');
    })
    .join('');
  return createHmac('sha1', authToken)
    .update(url + data, 'utf8')
    .digest('base64');
}

export function sameSecret(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

const ANSWERS: Record<string, 'accept' | 'decline'> = {
  YES: 'accept',
  Y: 'accept',
  ACCEPT: 'accept',
  NO: 'decline',
  N: 'decline',
  DECLINE: 'decline',
};

/**
 * A reply read as its answer and the offer's code: `YES 0042`, `no 0042.`, `0042 yes`, `Y0042`
 * (any case, punctuation ignored; Y/N and ACCEPT/DECLINE too). `answer` is null unless the reply
 * holds one answer word and nothing else but the code; `code` is null unless it holds one number.
 */
export function readReply(text: string): { answer: 'accept' | 'decline' | null; code: string | null } {
  const words = text
    .toUpperCase()
    .replace(/([A-Z])(\d)/g, '$1 $2')
    .replace(/(\d)([A-Z])/g, '$1 $2')
    .split(/[^A-Z0-9]+/)
    .filter(Boolean);
  const numbers = words.filter((w) => /^\d+$/.test(w));
  const others = words.filter((w) => !/^\d+$/.test(w));
  return {
    answer: others.length === 1 ? (ANSWERS[others[0]!] ?? null) : null,
    code: numbers.length === 1 ? numbers[0]! : null,
  };
}
