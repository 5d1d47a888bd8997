import type { Db } from '../../../core/db/transaction.js';

/** The person a message goes to (a user row has these fields). */
export interface Recipient {
  id: number;
  organization_id: number;
  first_name: string;
  last_name: string;
  /** JSON arrays of strings */
  emails: string;
  phone_numbers: string;
}

export interface Message {
  subject: string;
  text: string;
  /** A few words for channels with little room (SMS, push): the offer's hours and when to answer. */
  short?: string;
  /** the offer's accept/decline link, when the message is an offer */
  link?: string;
  /** the code an SMS reply must carry to answer this offer (`YES 0042`); only when replies are possible */
  replyCode?: string;
  /** UTC instant the offer lapses (a push service may drop the message after it) */
  expiresAt?: string;
  /**
   * false: a text may wait and be coalesced with the person's other texts (at most one non-urgent text per
   * 5 minutes, text-pacing.ts); anything else goes at once. Offers set it (urgent: the callback starts within
   * 2 hours).
   */
  urgent?: boolean;
  /** An iCalendar (.ics) body of the shift, attached where the channel can carry it (e-mail). */
  calendar?: { filename: string; content: string };
}

/**
 * A message a channel holds back instead of sending it now (SMS text pacing): `until` (UTC instant) it is due;
 * `receipt` settles when it goes out, with the provider's receipt, or rejects when it cannot.
 */
export interface Held {
  held: true;
  until: string;
  receipt: Promise<string | undefined>;
}

export const isHeld = (sent: string | undefined | Held): sent is Held => typeof sent === 'object';

/**
 * One way of reaching a person; one module per channel in this folder, each created by
 * createCallbackRunner. A personal channel (e-mail, SMS, mobile app) carries an offer when it is
 * the one chosen for the person (their contact method, else the fallback order, docs/workflows.md
 * "Channels"); a non-personal one (webhook) carries every offer when it is on.
 */
export interface Channel {
  /** The callback user's `contact_method` when this channel carried the offer (`Text (SMS)`, `Email` …). */
  readonly method: string;
  readonly personal: boolean;
  /** Why the channel cannot reach the person (off for want of configuration, or no address); null when it can. */
  unavailable(db: Db, orgId: number, recipient: Recipient): Promise<string | null>;
  /**
   * The address the person's replies come from on this channel (an E.164 number for SMS), stored
   * with the offer so that an inbound reply finds it; undefined for channels without replies.
   */
  replyAddress?(recipient: Recipient): string | undefined;
  /**
   * Delivers, after the contact committed; answers the provider's receipt (a message id) when it gives one, or
   * `Held` when the message goes out later.
   */
  send(recipient: Recipient, message: Message): Promise<string | undefined | Held>;
  close?(): void;
}
