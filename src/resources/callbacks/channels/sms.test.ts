import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { expectNotFoundForOtherOrg } from '../../../../test/helpers/common.js';
import { startServer, type TestOrg, type TestServer } from '../../../../test/helpers/server.js';
import { createAssignment } from '../../rotations/test-fixtures.js';
import { buildApp } from '../../../app.js';
import { signPayload } from '../../webhooks/signature.js';
import { SmsChannel, twilioSignature } from './sms.js';
import { TEXT_GAP_MS } from './text-pacing.js';
import { createCallbackRunner } from '../runner/runner.js';
import { at, listOf, logText, runnerSuite, startCallbackOn, usersOf } from '../test-fixtures.js';
import { createTimeOff } from '../../time-offs/test-fixtures.js';

/** One request the fake SMS provider received. */
interface Sent {
  path: string;
  headers: IncomingMessage['headers'];
  fields: Record<string, string>;
}

const TWILIO_SID = 'ACfake0000000000000000000000000001';
const TWILIO_TOKEN = 'twilio-auth-token';
const SENDER = '+15005550006';

let provider: Server;
const sent: Sent[] = [];
/** The fake provider's answer status (tests flip it to see a failure). */
let providerStatus = 201;
let server: TestServer;
let org: TestOrg;
let other: TestOrg;
let adminId: number;
let dutyId: number;
let groupId: number;
let stationId: number;

/** A local SMS provider: records each request (form or JSON body) and answers like Twilio. */
function fakeProvider(): Promise<Server> {
  const http = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      const json = (request.headers['content-type'] ?? '').includes('json');
      const fields = json
        ? (JSON.parse(body) as Record<string, string>)
        : Object.fromEntries(new URLSearchParams(body));
      sent.push({ path: request.url ?? '', headers: request.headers, fields });
      response.writeHead(providerStatus, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ sid: `SM${sent.length}`, status: 'queued' }));
    });
  });
  return new Promise((resolve) => http.listen(0, '127.0.0.1', () => resolve(http)));
}

const suite = runnerSuite({
  mail: true,
  start: async () => {
    provider = await fakeProvider();
    const providerPort = (provider.address() as AddressInfo).port;
    vi.stubEnv('SMS_PROVIDER', 'twilio');
    vi.stubEnv('SMS_URL', `http://127.0.0.1:${providerPort}/2010-04-01/Accounts/${TWILIO_SID}/Messages.json`);
    vi.stubEnv('SMS_ACCOUNT_SID', TWILIO_SID);
    vi.stubEnv('SMS_AUTH_TOKEN', TWILIO_TOKEN);
    vi.stubEnv('SMS_FROM', SENDER);
    return startServer();
  },
  after: () => new Promise<void>((resolve) => provider.close(() => resolve())),
});

beforeAll(async () => {
  server = suite.server;
  org = await server.newOrg({ name: 'Station Seven' });
  other = await server.newOrg();
  adminId = await org.createUser({ first_name: 'Chief', last_name: 'Admin', mail: 'chief@example.com' });
  dutyId = await org.createUser({ first_name: 'Duty', last_name: 'Officer', mail: 'duty@example.com' });
  const group = await org.post('/groups', { name: 'Duty officers' });
  groupId = group.body.id as number;
  expect((await org.put(`/users/${dutyId}/groups`, { ids: [groupId] })).status).toBe(200);
  stationId = await createAssignment(org, {
    name: 'Engine 7',
    start: '2032-05-01 07:00:00',
    end: '2032-05-02 07:00:00',
  });
});

const runner = () => suite.runner();

let phoneCounter = 100;
/** Crew members with a phone number (digits, as the spec writes them) and an e-mail address. */
async function crew(prefix: string, count: number, extra: Record<string, unknown> = {}): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 1; i <= count; i += 1) {
    phoneCounter += 1;
    ids.push(
      await org.createUser({
        first_name: prefix,
        last_name: `M${i}`,
        mail: `${prefix.toLowerCase()}${i}@example.com`,
        phone_numbers: [`555123${String(phoneCounter).padStart(4, '0')}`],
        ...extra,
      }),
    );
  }
  return ids;
}

const e164Of = async (userId: number) => `+1${(await org.get(`/users/${userId}`)).body.phone_numbers[0]}`;

/** A call list that texts its group (`notify_group_id`) as well. */
const groupList = (name: string, members: number[], settings: Record<string, unknown> = {}) =>
  listOf(org, name, members, { notify_group_id: groupId, ...settings });

const callbackOn = (listId: number, date: string, extra: Record<string, unknown> = {}) =>
  startCallbackOn({ org, adminId, stationId }, listId, date, extra);

const textsTo = (number: string) => sent.filter((s) => s.fields.To === number);
const mailsTo = suite.mailsTo;
const linkIn = (text: string) => /\/offers\/(cpo_[A-Za-z0-9_-]+)/.exec(text)![1];
/** The reply code of the offer a text carries (`Reply YES 0042 to accept`). */
const codeIn = (text: string) => /Reply YES (\d{4}) to accept/.exec(text)![1]!;
/** The code of the newest offer texted to a number. */
const codeTo = (number: string) => codeIn(textsTo(number).at(-1)!.fields.Body);

let messageCounter = 0;

/** A Twilio inbound message, signed as Twilio signs it unless `signature` says otherwise. */
async function reply(from: string, body: string, signature?: string | null, signedBody = body) {
  const url = `${server.url}/sms/inbound`;
  messageCounter += 1;
  const params = {
    From: from,
    To: SENDER,
    Body: body,
    MessageSid: `SMinbound${messageCounter}`,
    AccountSid: TWILIO_SID,
  };
  const signed = twilioSignature(TWILIO_TOKEN, url, { ...params, Body: signedBody });
  const headers: Record<string, string> = {};
  if (signature !== null) headers['x-twilio-signature'] = signature ?? signed;
  return server.request('POST', url, { body: params, form: true, token: null, headers });
}

const LOCAL_DATETIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

describe('SMS offers through the Twilio preset', () => {
  it('vacancy, SMS, no answer, next, signed YES: shift placed, admin and group told, the rest alone', async () => {
    const vacancies = await org.get('/vacancies', {
      query: { start: '2032-05-03 00:00:00', end: '2032-05-04 00:00:00', assignment_id: stationId },
    });
    expect(vacancies.status, vacancies.text).toBe(200);
    expect(vacancies.body.map((v: any) => [v.date, v.open])).toEqual([['2032-05-03', 1]]);

    const [first, second, third] = await crew('Fill', 3);
    expect((await org.put(`/users/${first}/callback_settings`, { contact_method: 'Text (SMS)' })).status).toBe(200);
    const [firstPhone, secondPhone, thirdPhone] = await Promise.all([first, second, third].map(e164Of));
    const listId = await groupList('Fill list', [first, second, third]);
    // the runner's clock starts 35 minutes back, so the second offer (made at +31) is open when the reply comes
    const clock = at(new Date().toISOString(), -35);
    const { id } = await callbackOn(listId, '2032-05-03', { scheduled_to: at(clock, -1) });
    const run = runner();

    expect(await run.runOnce(clock)).toEqual({ contacted: 1 });
    await vi.waitFor(() => expect(textsTo(firstPhone)).toHaveLength(1));
    const [text] = textsTo(firstPhone);
    expect(text.path).toBe(`/2010-04-01/Accounts/${TWILIO_SID}/Messages.json`);
    expect(text.headers.authorization).toBe(`Basic ${Buffer.from(`${TWILIO_SID}:${TWILIO_TOKEN}`).toString('base64')}`);
    expect(text.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.keys(text.fields).sort()).toEqual(['Body', 'From', 'To']);
    // the provider's message id is the contact's delivery receipt in the decision record
    await vi.waitFor(async () =>
      expect((await org.get(`/callbacks/${id}/decisions`)).body.contacts).toContainEqual(
        expect.objectContaining({ channel: 'Text (SMS)', result: 'sent', receipt: expect.stringMatching(/^SM\d+$/) }),
      ),
    );
    expect(text.fields.From).toBe(SENDER);
    expect(text.fields.Body).toMatch(
      new RegExp(
        '^Station Seven: Fill list: 2032-05-03 07:00:00 to 2032-05-04 07:00:00\\. ' +
          'Answer by \\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}\\. ' +
          'Reply YES (\\d{4}) to accept or NO \\1 to decline, or open http://127\\.0\\.0\\.1:\\d+/offers/cpo_',
      ),
    );
    expect(mailsTo('fill1@example.com')).toEqual([]);
    let users = await usersOf(org, id);
    expect(users[0]).toMatchObject({ id: String(first), status: 'pending', contact_method: 'Text (SMS)' });
    expect(users[0].contact_time).toMatch(LOCAL_DATETIME);
    expect(users[0].response_time).toBeNull();

    // the window passes without an answer: no answer, the second is texted (no preference: SMS before e-mail)
    expect(await run.runOnce(at(clock, 10))).toEqual({ contacted: 0 });
    expect(await run.runOnce(at(clock, 31))).toEqual({ contacted: 1 });
    await vi.waitFor(() => expect(textsTo(secondPhone)).toHaveLength(1));
    // a late YES from the first finds no open offer
    const late = await reply(firstPhone, `YES ${codeTo(firstPhone)}`);
    expect(late.status).toBe(200);
    expect(late.text).toContain('<Message>You have no open callback offer.</Message>');

    const accepted = await reply(secondPhone, `  yes ${codeTo(secondPhone)} \n`);
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.headers.get('content-type')).toMatch(/^text\/xml/);
    expect(accepted.text).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><Response>' +
        '<Message>You accepted the callback. A confirmation follows by e-mail.</Message></Response>',
    );
    expect((await org.get(`/callbacks/${id}`)).body.status).toBe('filled');
    users = await usersOf(org, id);
    expect(users.map((u) => [u.id, u.status, u.contact_method])).toEqual([
      [String(first), 'no answer', 'Text (SMS)'],
      [String(second), 'accepted', 'Text (SMS)'],
      [String(third), 'pending', null],
    ]);
    expect(users[1].contact_time).toMatch(LOCAL_DATETIME);
    expect(users[1].response_time).toMatch(LOCAL_DATETIME);
    expect(users[1].response_time! >= users[1].contact_time!).toBe(true);
    const schedule = await org.get('/schedule', {
      query: { start: '2032-05-03 00:00:00', end: '2032-05-04 00:00:00' },
    });
    const day = schedule.body.days.find((d: any) => d.date === '2032-05-03');
    const shifts = day.assignments.find((a: any) => a.id === stationId).shifts;
    expect(shifts.map((s: any) => [s.user.id, s.start, s.end])).toContainEqual([
      second,
      '2032-05-03 07:00:00',
      '2032-05-04 07:00:00',
    ]);
    // an answered offer cannot be answered twice
    expect((await reply(secondPhone, `NO ${codeTo(secondPhone)}`)).text).toContain('You have no open callback offer.');

    // the next pass confirms (with the shift as .ics), tells the admin and the group, and texts nobody else
    expect(await run.runOnce(at(clock, 32))).toEqual({ contacted: 0 });
    await vi.waitFor(() => expect(mailsTo('fill2@example.com')).toHaveLength(1));
    await vi.waitFor(() => expect(mailsTo('duty@example.com')).toHaveLength(1));
    await vi.waitFor(() => expect(mailsTo('chief@example.com').length).toBeGreaterThan(0));
    const [confirmation] = mailsTo('fill2@example.com');
    expect(confirmation.subject).toBe('Confirmed: callback 2032-05-03 07:00:00 to 2032-05-04 07:00:00');
    expect(confirmation.raw).toMatch(/Content-Type: text\/calendar; charset=utf-8; method=PUBLISH/i);
    expect(confirmation.raw).toContain('BEGIN:VCALENDAR');
    expect(confirmation.raw).toContain('DTSTART;TZID=America/Chicago:20320503T070000');
    expect(confirmation.raw).toContain('DTEND;TZID=America/Chicago:20320504T070000');
    expect(confirmation.raw).toContain('SUMMARY:Callback: Engine 7');
    expect(mailsTo('chief@example.com').map((m) => m.subject)).toContain(`Callback #${id} filled: 1 of 1`);
    expect(mailsTo('duty@example.com').map((m) => m.subject)).toEqual([`Callback #${id} filled: 1 of 1`]);
    expect(await run.runOnce(at(clock, 120))).toEqual({ contacted: 0 });
    expect(textsTo(thirdPhone)).toEqual([]);
    expect(textsTo(firstPhone)).toHaveLength(1);
    expect(textsTo(secondPhone)).toHaveLength(1);
    expect(await logText(org)).toContain(
      `accepted callback #${id} (2032-05-03 07:00:00 to 2032-05-04 07:00:00); the callback is filled`,
    );
  });

  it('refuses unsigned, badly signed and altered replies (401/403, spec format) and records nothing', async () => {
    const [member] = await crew('Sign', 1);
    const phone = await e164Of(member);
    const listId = await groupList('Sign list', [member]);
    const { id } = await callbackOn(listId, '2032-05-05');
    await runner().runOnce(new Date().toISOString());
    await vi.waitFor(() => expect(textsTo(phone)).toHaveLength(1));

    const unsigned = await reply(phone, 'YES', null);
    expect(unsigned).toAnswer(401, {
      status: 401,
      error: 'unauthorized',
      error_message: 'The request is not signed: the X-Twilio-Signature header is missing.',
    });
    const forged = await reply(phone, 'YES', 'bm90IGEgc2lnbmF0dXJl');
    expect(forged).toAnswer(403, {
      status: 403,
      error: 'forbidden',
      error_message: 'The X-Twilio-Signature does not match the request.',
    });
    // signed for "NO", sent as "YES"
    const altered = await reply(phone, 'YES', undefined, 'NO');
    expect(altered.status).toBe(403);
    expect((await usersOf(org, id))[0].status).toBe('pending');

    const declined = await reply(phone, ` No. ${codeTo(phone)}`);
    expect(declined.status).toBe(200);
    expect(declined.text).toContain('You declined the callback.');
    expect((await usersOf(org, id))[0]).toMatchObject({ status: 'denied', contact_method: 'Text (SMS)' });
    const unclear = await reply(phone, 'maybe later');
    expect(unclear.text).toContain('You have no open callback offer.');
  });

  it('50 parallel YES and NO replies to one offer: exactly one is recorded, at most one shift', async () => {
    const [member] = await crew('Race', 1);
    const phone = await e164Of(member);
    const { id } = await callbackOn(await groupList('Race list', [member]), '2032-05-09');
    await runner().runOnce(new Date().toISOString());
    await vi.waitFor(() => expect(textsTo(phone)).toHaveLength(1));
    const code = codeTo(phone);
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => reply(phone, `${i % 2 ? 'NO' : 'YES'} ${code}`)),
    );
    expect(answers.map((r) => r.status)).toEqual(Array(50).fill(200));
    const recorded = answers.filter((r) => /You (accepted|declined) the callback\./.test(r.text));
    expect(recorded).toHaveLength(1);
    const accepted = recorded[0].text.includes('You accepted');
    const [user] = await usersOf(org, id);
    expect(user.status).toBe(accepted ? 'accepted' : 'denied');
    expect((await org.get(`/callbacks/${id}`)).body.status).toBe(accepted ? 'filled' : 'active');
    const schedule = await org.get('/schedule', {
      query: { start: '2032-05-09 00:00:00', end: '2032-05-10 00:00:00' },
    });
    const day = schedule.body.days.find((d: { date: string }) => d.date === '2032-05-09');
    const shifts = day.assignments
      .find((x: { id: number }) => x.id === stationId)
      .shifts.filter((s: { user: { id: number } }) => s.user.id === member);
    expect(shifts).toHaveLength(accepted ? 1 : 0);
  });

  it('a signed reply replayed is refused (409): one of 10 parallel copies is answered (issue 41, F8)', async () => {
    const [member] = await crew('Replay', 1);
    const phone = await e164Of(member);
    const { id } = await callbackOn(await groupList('Replay list', [member]), '2032-05-15');
    await runner().runOnce(new Date().toISOString());
    await vi.waitFor(() => expect(textsTo(phone)).toHaveLength(1));
    const url = `${server.url}/sms/inbound`;
    const params = {
      From: phone,
      To: SENDER,
      Body: `NO ${codeTo(phone)}`,
      MessageSid: 'SMreplayed',
      AccountSid: TWILIO_SID,
    };
    const headers = { 'x-twilio-signature': twilioSignature(TWILIO_TOKEN, url, params) };
    const copies = await Promise.all(
      Array.from({ length: 10 }, () => server.request('POST', url, { body: params, form: true, token: null, headers })),
    );
    expect(copies.map((r) => r.status).sort()).toEqual([200, ...Array(9).fill(409)]);
    expect(copies.find((r) => r.status === 409)).toAnswer(409, {
      status: 409,
      error: 'conflict',
      error_message: 'This message was received before: a replayed request is not answered again.',
    });
    expect((await usersOf(org, id))[0].status).toBe('denied');
  });

  it('answers other texts with the instructions and leaves the offer open', async () => {
    const [member] = await crew('Ask', 1);
    const phone = await e164Of(member);
    const { id } = await callbackOn(await groupList('Ask list', [member]), '2032-05-06');
    await runner().runOnce(new Date().toISOString());
    await vi.waitFor(() => expect(textsTo(phone)).toHaveLength(1));
    const unclear = await reply(phone, 'what time?');
    expect(unclear.text).toContain(
      '<Message>Reply YES or NO followed by the code in the text of the offer, for example YES 1234.</Message>',
    );
    const code = codeTo(phone);
    const noAnswer = await reply(phone, `maybe ${code}`);
    expect(noAnswer.text).toContain(`<Message>Reply YES ${code} to accept the callback or NO ${code} to decline it.`);
    const wrong = await reply(phone, `YES ${code === '9999' ? '0000' : '9999'}`);
    expect(wrong.text).toMatch(/<Message>No open callback offer has the code \d{4}\. Reply YES or NO followed/);
    expect((await usersOf(org, id))[0].status).toBe('pending');
  });

  it('falls back to e-mail when the preferred SMS cannot reach the person, and says why in the record', async () => {
    const [member] = await crew('Nophone', 1, { phone_numbers: [] });
    expect((await org.put(`/users/${member}/callback_settings`, { contact_method: 'Text (SMS)' })).status).toBe(200);
    const { id } = await callbackOn(await groupList('Nophone list', [member]), '2032-05-07');
    await runner().runOnce(new Date().toISOString());
    await vi.waitFor(() => expect(mailsTo('nophone1@example.com')).toHaveLength(1));
    expect((await usersOf(org, id))[0].contact_method).toBe('Email');
    const log = await logText(org);
    expect(log).toContain(`offered callback #${id}`);
    expect(log).toContain('SMS: the user has no phone number');
  });

  it('falls back to e-mail when the SMS provider fails, and records the fallback', async () => {
    const [member] = await crew('Down', 1);
    const phone = await e164Of(member);
    const { id } = await callbackOn(await groupList('Down list', [member]), '2032-05-08');
    providerStatus = 503;
    try {
      await runner().runOnce(new Date().toISOString());
      await vi.waitFor(() => expect(textsTo(phone)).toHaveLength(1));
      await vi.waitFor(() => expect(mailsTo('down1@example.com')).toHaveLength(1));
      expect(mailsTo('down1@example.com')[0].subject).toMatch(/^Callback offer/);
      await vi.waitFor(async () =>
        expect(await logText(org)).toContain(`by Email instead: Text (SMS) failed: the SMS provider answered 503`),
      );
      expect((await usersOf(org, id))[0].contact_method).toBe('Email');
      // the decision record has both contacts: the failed text, and the e-mail with its Message-ID as receipt
      await vi.waitFor(async () => {
        const { contacts } = (await org.get(`/callbacks/${id}/decisions`)).body as {
          contacts: Array<{ channel: string; result: string; receipt: string | null; detail: string | null }>;
        };
        const tried = contacts.filter((c) => c.result !== 'unavailable');
        expect(tried.map((c) => [c.channel, c.result])).toEqual([
          ['Text (SMS)', 'failed'],
          ['Email', 'sent'],
        ]);
        expect(tried[0]).toMatchObject({ receipt: null, detail: expect.stringContaining('503') });
        expect(tried[1]!.receipt).toMatch(/^<.+@.+>$/);
      });
    } finally {
      providerStatus = 201;
    }
  });
});

describe('replies across organizations (issue 41, F1)', () => {
  it("a reply to organization A's text never answers organization B's offer to the same number", async () => {
    // organization B gives one of its users the number of organization A's member, and offers later
    const [member] = await crew('Shared', 1);
    const phone = await e164Of(member);
    const listA = await groupList('Shared list A', [member]);
    const bAdmin = await other.createUser({ first_name: 'Other', last_name: 'Admin' });
    const impostor = await other.createUser({
      first_name: 'Other',
      last_name: 'Holder',
      phone_numbers: [phone.slice(2)],
    });
    const listB = await listOf(other, 'Shared list B', [impostor]);
    const callbackA = await callbackOn(listA, '2032-08-01');
    const callbackB = await other.post('/callbacks', {
      list_id: listB,
      initiated_by: bAdmin,
      start: '2032-08-01 07:00:00',
      end: '2032-08-01 19:00:00',
      positions_to_fill: 1,
      deadline: '2035-01-01T00:00:00+00:00',
    });
    expect(callbackB.status, callbackB.text).toBe(201);
    const clock = new Date().toISOString();
    await runner().runOnce(clock);
    await vi.waitFor(() => expect(textsTo(phone)).toHaveLength(2));
    const [textA, textB] = [callbackA.id, callbackB.body.id].map(
      (_id, i) => textsTo(phone).find((t) => t.fields.Body.includes(i === 0 ? 'Shared list A' : 'Shared list B'))!,
    );
    // every text names its organization
    expect(textA.fields.Body).toContain('Station Seven');
    expect(textB.fields.Body).not.toContain('Station Seven');
    // the member answers A's text as it asks: what it says to send for YES
    const yesA = /Reply (YES[^,]*?) to accept/.exec(textA.fields.Body)![1]!;
    const yesB = /Reply (YES[^,]*?) to accept/.exec(textB.fields.Body)![1]!;
    expect(yesA).not.toBe(yesB);
    const answered = await reply(phone, yesA);
    expect(answered.text).toContain('You accepted the callback.');
    expect((await usersOf(org, callbackA.id))[0]).toMatchObject({ id: String(member), status: 'accepted' });
    expect((await usersOf(other, callbackB.body.id))[0]).toMatchObject({ id: String(impostor), status: 'pending' });
    // a bare YES answers no offer while several are open: it asks for the code
    const bare = await reply(phone, 'YES');
    expect(bare.text).toContain('<Message>Reply YES or NO followed by the code in the text of the offer');
    expect((await usersOf(other, callbackB.body.id))[0].status).toBe('pending');
  });
});

describe('an organization with its own number (SMS_FROM_BY_ORGANIZATION)', () => {
  it('texts from its number, and only a reply to that number answers its offers', async () => {
    const OWN = '+15005550077';
    const own = await buildApp(
      { ...server.config, sms: { ...server.config.sms, fromByOrganization: { [other.orgId]: OWN } } },
      { handle: server.app.dbHandle, logger: false },
    );
    await own.listen({ port: 0, host: '127.0.0.1' });
    const ownUrl = `http://127.0.0.1:${(own.server.address() as AddressInfo).port}`;
    try {
      const admin = await other.createUser({ first_name: 'Own', last_name: 'Admin' });
      const member = await other.createUser({ first_name: 'Own', last_name: 'Member', phone_numbers: ['5559870077'] });
      const phone = '+15559870077';
      const listId = await listOf(other, 'Own number list', [member]);
      const started = await other.post('/callbacks', {
        list_id: listId,
        initiated_by: admin,
        start: '2032-08-05 07:00:00',
        end: '2032-08-05 19:00:00',
        positions_to_fill: 1,
        deadline: '2035-01-01T00:00:00+00:00',
      });
      expect(started.status, started.text).toBe(201);
      const run = createCallbackRunner(own, { baseUrl: ownUrl });
      suite.track(run);
      await run.runOnce(new Date().toISOString());
      await vi.waitFor(() => expect(textsTo(phone)).toHaveLength(1));
      expect(textsTo(phone)[0]!.fields.From).toBe(OWN);
      const code = codeTo(phone);
      const signedReply = (to: string) => {
        const url = `${ownUrl}/sms/inbound`;
        messageCounter += 1;
        const params = { From: phone, To: to, Body: `YES ${code}`, MessageSid: `SMown${messageCounter}` };
        const headers = { 'x-twilio-signature': twilioSignature(TWILIO_TOKEN, url, params) };
        return server.request('POST', url, { body: params, form: true, token: null, headers });
      };
      // a reply to the shared number cannot answer an offer sent from the organization's own
      expect((await signedReply(SENDER)).text).toContain('You have no open callback offer.');
      expect((await usersOf(other, started.body.id))[0]!.status).toBe('pending');
      expect((await signedReply(OWN)).text).toContain('You accepted the callback.');
      expect((await usersOf(other, started.body.id))[0]!.status).toBe('accepted');
    } finally {
      await own.close();
    }
  });
});

describe('do not disturb', () => {
  it('moves on past someone in their quiet hours and offers them once the hours end', async () => {
    const [quiet, awake] = await crew('Quiet', 2);
    const [quietPhone, awakePhone] = await Promise.all([quiet, awake].map(e164Of));
    const saved = await org.put(`/users/${quiet}/callback_settings`, {
      do_not_disturb_start: '22:00',
      do_not_disturb_end: '08:30',
    });
    expect(saved.status, saved.text).toBe(200);
    const { id } = await callbackOn(await groupList('Quiet list', [quiet, awake]), '2032-05-10');
    const run = runner();
    // 14:00Z is 08:00 in Chicago (CST, winter): inside 22:00..08:30
    expect(await run.runOnce('2032-02-02T14:00:00.000Z')).toEqual({ contacted: 1 });
    await vi.waitFor(() => expect(textsTo(awakePhone)).toHaveLength(1));
    let users = await usersOf(org, id);
    expect(users.map((u) => [u.status, u.contact_time === null, u.do_not_disturb])).toEqual([
      ['pending', true, '1'],
      ['pending', false, '0'],
    ]);
    expect(await logText(org)).toContain(
      `did not contact user #${quiet} on callback #${id} during their do-not-disturb hours (22:00 to 08:30)`,
    );
    // 08:20: still quiet; the second's window runs
    expect(await run.runOnce('2032-02-02T14:20:00.000Z')).toEqual({ contacted: 0 });
    expect(textsTo(quietPhone)).toEqual([]);
    // 08:31: the hours ended and the second's window has passed: the first is offered now
    expect(await run.runOnce('2032-02-02T14:31:00.000Z')).toEqual({ contacted: 1 });
    await vi.waitFor(() => expect(textsTo(quietPhone)).toHaveLength(1));
    users = await usersOf(org, id);
    expect(users.map((u) => u.status)).toEqual(['pending', 'no answer']);
    expect(users[0].contact_time).toBe('2032-02-02 08:31:00');
    expect(users[0].do_not_disturb).toBe('1');
    const log = await logText(org);
    expect(log.match(/during their do-not-disturb hours/g)).toHaveLength(1);
  });
});

describe('the end of the list', () => {
  it('tells the admin and the notice group once when nobody is left to offer', async () => {
    const [only] = await crew('Last', 1);
    const { id } = await callbackOn(await groupList('Last list', [only]), '2032-05-12');
    const clock = new Date().toISOString();
    const run = runner();
    await run.runOnce(clock);
    await run.runOnce(at(clock, 31));
    await run.runOnce(at(clock, 40));
    const subject = `Callback #${id} reached the end of its list: 0 of 1`;
    await vi.waitFor(() => expect(mailsTo('duty@example.com').map((m) => m.subject)).toContain(subject));
    await vi.waitFor(() => expect(mailsTo('chief@example.com').map((m) => m.subject)).toContain(subject));
    expect(mailsTo('duty@example.com').filter((m) => m.subject === subject)).toHaveLength(1);
    expect((await org.get(`/callbacks/${id}`)).body.status).toBe('active');
    expect(await logText(org)).toContain(
      `callback #${id} reached the end of its list with 0 of 1 position(s) accepted.`,
    );
  });
});

describe('exclusion window and availability', () => {
  it('skips the not available and those within a time off window, with reasons the board shares', async () => {
    const [late, away, fine, later] = await crew('Blocked', 4);
    const type = await org.post('/time_off_types', { label: 'Vacation', callback_exclusion_hours: 12 });
    expect(type.status, type.text).toBe(201);
    expect((await org.get(`/time_off_types/${type.body.id}`)).body.callback_exclusion_hours).toBe(12);
    const tooWide = await org.post('/time_off_types', { label: 'Sabbatical', callback_exclusion_hours: 169 });
    expect(tooWide.status).toBe(422);
    expect(JSON.stringify(tooWide.body.error_message)).toMatch(/callback exclusion hours/i);
    // starts 5 hours after the callback ends
    await createTimeOff(org, {
      userId: late,
      adminId,
      start: '2032-06-11 12:00:00',
      end: '2032-06-12 12:00:00',
      typeId: type.body.id,
      status: 1,
    });
    const period = await org.post('/availability_periods', {
      user_id: away,
      start: '2032-06-10 10:00:00',
      end: '2032-06-10 14:00:00',
    });
    expect(period.status, period.text).toBe(201);
    const listId = await groupList('Blocked list', [later, late, away, fine]);

    const board = await org.get('/vacancies/candidates', {
      query: { assignment_id: stationId, date: '2032-06-10', list_id: listId },
    });
    expect(board.status, board.text).toBe(200);
    const lateReason = 'within 12 hours of approved time off (Vacation, 2032-06-11 12:00:00 to 2032-06-12 12:00:00)';
    const awayReason = 'not available from 2032-06-10 10:00:00 to 2032-06-10 14:00:00';
    expect(board.body.skipped.map((s: any) => [s.user.id, s.reason])).toEqual([
      [late, lateReason],
      [away, awayReason],
    ]);
    expect(board.body.candidates.map((c: any) => c.user.id)).toEqual([later, fine]);

    const started = await callbackOn(listId, '2032-06-10');
    expect(started.skipped).toEqual([
      { user_id: late, reason: lateReason },
      { user_id: away, reason: awayReason },
    ]);
    // someone who becomes unavailable after the start is passed over when their turn comes
    expect(
      (
        await org.post('/availability_periods', {
          user_id: later,
          start: '2032-06-10 18:00:00',
          end: '2032-06-11 02:00:00',
        })
      ).status,
    ).toBe(201);
    await runner().runOnce(new Date().toISOString());
    const users = await usersOf(org, started.id);
    expect(users.map((u) => [u.id, u.contact_time === null])).toEqual([
      [String(later), true],
      [String(fine), false],
    ]);
    expect(await logText(org)).toContain(
      `passed over user #${later} on callback #${started.id}: ` +
        'not available from 2032-06-10 18:00:00 to 2032-06-11 02:00:00',
    );
    expect(textsTo(await e164Of(later))).toEqual([]);
  });
});

describe('DELETE /callbacks/{id}/users/{user_id}/offer (extension)', () => {
  it('revokes one open link: the link and an SMS reply are refused and logged; 404 after', async () => {
    const [member] = await crew('Revoke', 1);
    const phone = await e164Of(member);
    const { id } = await callbackOn(await groupList('Revoke list', [member]), '2032-05-14');
    await runner().runOnce(new Date().toISOString());
    await vi.waitFor(() => expect(textsTo(phone)).toHaveLength(1));
    const token = linkIn(textsTo(phone)[0].fields.Body);

    await expectNotFoundForOtherOrg(other, 'DELETE', `/callbacks/${id}/users/${member}/offer`);
    const revoked = await org.del(`/callbacks/${id}/users/${member}/offer`, undefined, {
      query: { admin_id: adminId },
    });
    expect(revoked).toSucceed(200, `Revoked the offer link of user #${member} on callback #${id}`);
    const page = await server.request('GET', `${server.url}/offers/${token}`, { token: null });
    expect(page.status).toBe(410);
    expect(page.text).toContain('This link has been revoked.');
    const post = await server.request('POST', `${server.url}/offers/${token}`, {
      body: { answer: 'accept' },
      form: true,
      token: null,
    });
    expect(post.status).toBe(410);
    expect((await reply(phone, `YES ${codeTo(phone)}`)).text).toContain('You have no open callback offer.');
    expect((await usersOf(org, id))[0].status).toBe('pending');
    const again = await org.del(`/callbacks/${id}/users/${member}/offer`);
    expect(again).toBeNotFound('CallbackOffer');
    const badAdmin = await org.del(`/callbacks/${id}/users/${member}/offer`, undefined, {
      query: { admin_id: 999999 },
    });
    expect(badAdmin.status).toBe(422);
    const log = await logText(org);
    expect(log).toContain(`revoked the callback #${id} offer link of user #${member}.`);
    expect(
      log.match(
        new RegExp(
          `refused a callback #${id} offer link of user #${member} \\(view\\): This link has been revoked\\.`,
          'g',
        ),
      ),
    ).toHaveLength(1);
    expect(log).not.toContain(token);
  });
});

describe('a generic SMS provider', () => {
  it('posts JSON {to, from, text} with a bearer token and takes replies signed with the inbound secret', async () => {
    const secret = 'inbound-secret';
    const port = (provider.address() as AddressInfo).port;
    const generic = await startServer({
      sms: {
        provider: 'generic',
        url: `http://127.0.0.1:${port}/generic/send`,
        accountSid: undefined,
        authToken: 'provider-token',
        from: '+15005550001',
        fromByOrganization: {},
        bodyFormat: 'json',
        inboundSecret: secret,
        defaultCountry: 'US',
        timeoutMs: 5000,
      },
    });
    try {
      const tenant = await generic.newOrg();
      const admin = await tenant.createUser({ first_name: 'Gen', last_name: 'Admin' });
      const member = await tenant.createUser({ first_name: 'Gen', last_name: 'Member', phone_numbers: ['5559870001'] });
      const list = await tenant.post('/lists', { name: 'Generic', contact_window_minutes: 30 });
      expect((await tenant.put(`/users/${member}/titles`, { ids: [list.body.id] })).status).toBe(200);
      const started = await tenant.post('/callbacks', {
        list_id: list.body.id,
        initiated_by: admin,
        start: '2032-07-01 07:00:00',
        end: '2032-07-01 19:00:00',
        positions_to_fill: 1,
        deadline: '2035-01-01T00:00:00+00:00',
      });
      expect(started.status, started.text).toBe(201);
      const run = createCallbackRunner(generic.app, { baseUrl: generic.url });
      suite.track(run);
      await run.runOnce(new Date().toISOString());
      await vi.waitFor(() => expect(sent.filter((s) => s.path === '/generic/send')).toHaveLength(1));
      const [text] = sent.filter((s) => s.path === '/generic/send');
      expect(text.headers.authorization).toBe('Bearer provider-token');
      expect(text.headers['content-type']).toBe('application/json');
      expect(Object.keys(text.fields).sort()).toEqual(['from', 'text', 'to']);
      expect(text.fields).toMatchObject({ to: '+15559870001', from: '+15005550001' });
      expect(text.fields.text).toMatch(/Reply YES \d{4} to accept or NO \d{4} to decline/);

      const inbound = (body: string, headers: Record<string, string>) =>
        generic.request('POST', `${generic.url}/sms/inbound`, {
          body,
          headers: { 'content-type': 'application/json', ...headers },
          token: null,
        });
      const body = JSON.stringify({ from: '+15559870001', text: `Yes ${codeIn(text.fields.text)}` });
      const now = Math.floor(Date.now() / 1000);
      const unsigned = await inbound(body, {});
      expect(unsigned.status).toBe(401);
      expect(unsigned.body.error).toBe('unauthorized');
      const stale = await inbound(body, {
        'x-crewplan-timestamp': String(now - 3600),
        'x-crewplan-signature': signPayload(secret, now - 3600, body),
      });
      expect(stale.status).toBe(403);
      expect(stale.body.error_message).toBe(
        'The X-Crewplan-Timestamp is more than 5 minutes away from the server clock.',
      );
      const wrongKey = await inbound(body, {
        'x-crewplan-timestamp': String(now),
        'x-crewplan-signature': signPayload('another-secret', now, body),
      });
      expect(wrongKey.status).toBe(403);
      const good = await inbound(body, {
        'x-crewplan-timestamp': String(now),
        'x-crewplan-signature': signPayload(secret, now, body),
      });
      expect(good).toAnswer(200, {
        success: true,
        message: 'You accepted the callback. A confirmation follows by e-mail.',
      });
      // the same signed request again, inside the 5 minutes: refused
      const replayed = await inbound(body, {
        'x-crewplan-timestamp': String(now),
        'x-crewplan-signature': signPayload(secret, now, body),
      });
      expect(replayed.status).toBe(409);
      expect(replayed.body.error).toBe('conflict');
      const users = (await tenant.get(`/callbacks/${started.body.id}/users`)).body;
      expect(users[0]).toMatchObject({ status: 'accepted', contact_method: 'Text (SMS)' });
    } finally {
      await generic.close();
    }
  });
});

describe('text pacing in the decision record', () => {
  it('a text held by the 5-minute pacing is recorded held, then sent with its receipt when it goes out', async () => {
    // the pacer's clock: the second offer comes half a second before the person's 5 minutes end
    let clock = Date.now();
    const sms = new SmsChannel(
      server.app.config.sms,
      () => undefined,
      () => clock,
    );
    const run = suite.track(createCallbackRunner(server.app, { baseUrl: server.url, channels: [sms] }));
    const [person] = await crew('Paced', 1);
    expect((await org.put(`/users/${person}/callback_settings`, { contact_method: 'Text (SMS)' })).status).toBe(200);
    const phone = await e164Of(person!);
    const listId = await listOf(org, 'Paced list', [person!]);
    const contactsOf = async (id: number) =>
      ((await org.get(`/callbacks/${id}/decisions`)).body.contacts as Array<Record<string, unknown>>).map((c) => ({
        result: c.result,
        receipt: c.receipt,
        detail: c.detail,
      }));
    const first = await callbackOn(listId, '2032-06-03');
    expect(await run.runOnce(new Date().toISOString())).toEqual({ contacted: 1 });
    await vi.waitFor(() => expect(textsTo(phone)).toHaveLength(1));
    await vi.waitFor(async () => expect((await contactsOf(first.id)).map((c) => c.result)).toEqual(['sent']));

    clock += TEXT_GAP_MS - 500;
    const second = await callbackOn(listId, '2032-06-04');
    expect(await run.runOnce(new Date().toISOString())).toEqual({ contacted: 1 });
    // queued, not sent: the record says held, with no receipt, while the provider has seen nothing
    expect(await contactsOf(second.id)).toEqual([
      { result: 'held', receipt: null, detail: `held by text pacing until ${new Date(clock + 500).toISOString()}` },
    ]);
    expect(textsTo(phone)).toHaveLength(1);
    await vi.waitFor(() => expect(textsTo(phone)).toHaveLength(2), { timeout: 5000 });
    const receipt = `SM${sent.indexOf(textsTo(phone)[1]!) + 1}`;
    await vi.waitFor(async () =>
      expect(await contactsOf(second.id)).toEqual([
        expect.objectContaining({ result: 'held', receipt: null }),
        { result: 'sent', receipt, detail: null },
      ]),
    );
    // both contacts are sealed: the record replays identical
    expect((await org.get(`/callbacks/${second.id}/replay`)).body).toMatchObject({ identical: true });
  });
});
