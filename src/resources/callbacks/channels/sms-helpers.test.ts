import { describe, expect, it } from 'vitest';
import type { Config } from '../../../config.js';
import { loadConfig } from '../../../config.js';
import { fallbackOrder, inDoNotDisturb } from './choice.js';
import type { Channel } from './channel.js';
import { e164, readReply, smsRequest, twilioSignature } from './sms.js';

describe('twilioSignature', () => {
  it("matches Twilio's published example", () => {
    // Twilio's documentation: auth token 12345, this URL and these POST parameters
    const params = {
      CallSid: 'CA1234567890ABCDE',
      Caller: '+12349013030',
      Digits: '1234',
      From: '+12349013030',
      To: '+18005551212',
    };
    expect(twilioSignature('12345', 'https://mycompany.com/myapp.php?foo=1&bar=2', params)).toBe(
      '0/KCTR6DLpKmkAf8muzZqo1nDgQ=',
    );
    // the same value computed by Twilio's own helper library (getExpectedTwilioSignature)
    expect(
      twilioSignature('secret-token', 'http://127.0.0.1:4000/sms/inbound', {
        From: '+15551230001',
        Body: ' yes ',
        To: '+15005550006',
      }),
    ).toBe('9YkAPT4qDRFgke8/l8laS0864ds=');
  });
});

describe('readReply', () => {
  it('reads YES and NO in any case, with spaces and punctuation, and the code wherever it stands', () => {
    const accept = { answer: 'accept', code: '0042' };
    expect(['YES 0042', ' yes 0042 ', 'Yes 0042!', 'y0042', '0042 accept\n'].map(readReply)).toEqual(
      Array(5).fill(accept),
    );
    const decline = { answer: 'decline', code: '0042' };
    expect(['NO 0042', ' no. 0042', '0042 No', 'n 0042', 'Decline, 0042'].map(readReply)).toEqual(
      Array(5).fill(decline),
    );
    expect(['YES', 'no'].map(readReply)).toEqual([
      { answer: 'accept', code: null },
      { answer: 'decline', code: null },
    ]);
    expect(['yes please 0042', 'nope 0042', '', 'maybe', 'YES 0042 0043'].map(readReply)).toEqual([
      { answer: null, code: '0042' },
      { answer: null, code: '0042' },
      { answer: null, code: null },
      { answer: null, code: null },
      { answer: 'accept', code: null },
    ]);
  });
});

describe('e164', () => {
  it('reads digits in the default country and keeps numbers that carry their own', () => {
    expect(e164('5551230001', 'US')).toBe('+15551230001');
    expect(e164('(555) 123-0001', 'US')).toBe('+15551230001');
    expect(e164('+442071838750', 'US')).toBe('+442071838750');
    expect(e164('12', 'US')).toBeUndefined();
  });
});

describe('smsRequest', () => {
  const settings = (env: Record<string, string>): Config['sms'] =>
    loadConfig({ CREWPLAN_DATA_DIR: 'data-unused', ...env }, { secretKey: Buffer.from('k') }).sms;

  it('builds Twilio’s Messages API call from the preset', () => {
    const twilio = settings({
      SMS_PROVIDER: 'twilio',
      SMS_ACCOUNT_SID: 'AC1',
      SMS_AUTH_TOKEN: 'tok',
      SMS_FROM: '+15005550006',
    });
    const { url, init } = smsRequest(twilio, '+15551230001', 'Hello');
    expect(url).toBe('https://api.twilio.com/2010-04-01/Accounts/AC1/Messages.json');
    expect(init.headers).toMatchObject({
      authorization: `Basic ${Buffer.from('AC1:tok').toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(init.body).toBe('To=%2B15551230001&From=%2B15005550006&Body=Hello');
  });

  it('is off until the provider settings are complete', () => {
    expect(settings({ SMS_PROVIDER: 'twilio', SMS_ACCOUNT_SID: 'AC1', SMS_FROM: '+1' }).url).toBeUndefined();
    expect(settings({ SMS_URL: 'https://sms.example/send' }).url).toBeUndefined();
    expect(settings({ SMS_URL: 'https://sms.example/send', SMS_FROM: '+1' }).url).toBe('https://sms.example/send');
  });
});

describe('channel choice', () => {
  const channel = (method: string, personal = true) => ({ method, personal }) as Channel;
  const email = channel('Email');
  const sms = channel('Text (SMS)');
  const push = channel('Mobile App');
  const webhook = channel('Webhook', false);

  it('tries the preferred channel first, then Mobile App, Text (SMS), Email; never the webhook', () => {
    expect(fallbackOrder([email, sms, push, webhook], null)).toEqual([push, sms, email]);
    expect(fallbackOrder([email, sms, push, webhook], 'Email')).toEqual([email, push, sms]);
    expect(fallbackOrder([email, webhook], 'Text (SMS)')).toEqual([email]);
  });

  it('honours do-not-disturb hours within a day and across midnight', () => {
    const hours = (start: string, end: string) => ({
      contact_method: null,
      do_not_disturb_start: start,
      do_not_disturb_end: end,
    });
    expect(['22:00', '23:59', '00:00', '06:59'].map((t) => inDoNotDisturb(hours('22:00', '07:00'), t))).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(['07:00', '12:00', '21:59'].map((t) => inDoNotDisturb(hours('22:00', '07:00'), t))).toEqual([
      false,
      false,
      false,
    ]);
    expect(['13:00', '13:59', '14:00', '12:59'].map((t) => inDoNotDisturb(hours('13:00', '14:00'), t))).toEqual([
      true,
      true,
      false,
      false,
    ]);
    expect(
      inDoNotDisturb({ contact_method: null, do_not_disturb_start: null, do_not_disturb_end: null }, '03:00'),
    ).toBe(false);
  });
});
