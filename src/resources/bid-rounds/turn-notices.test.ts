import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestOrg, type TestServer } from '../../../test/helpers/server.js';
import { Temporal } from '../../core/time.js';
import { catchMail, type CaughtMail } from '../callbacks/test-fixtures.js';

/*
 * A member is told when their bidding turn comes (docs/contract-rules.md, "Vacation bidding"): three
 * members in seniority order, 60-minute turns; a pick ends a turn at once, a lapsed window passes it.
 */
let server: TestServer;
let org: TestOrg;
let mail: { mails: CaughtMail[]; close(): Promise<void> };
const members: number[] = [];
const addresses = new Map<string, number>();

beforeAll(async () => {
  mail = await catchMail();
  server = await startServer();
  org = await server.newOrg({ name: 'Bidding' });
  for (const [first, hired] of [
    ['Ada', '2001-01-01'],
    ['Ben', '2005-01-01'],
    ['Cy', '2010-01-01'],
  ] as const) {
    const id = await org.createUser({ first_name: first, last_name: 'Bidder', date_of_hire: hired });
    members.push(id);
    addresses.set((await org.get(`/users/${id}`)).body.emails[0], id);
  }
});
afterAll(async () => {
  await server.close();
  await mail.close();
});

/** A year always ahead of today: its days can still be picked. */
const YEAR = new Date().getUTCFullYear() + 2;

/** Who was told, in order, by the mails' subjects. */
const told = () =>
  mail.mails
    .filter((m) => m.subject.startsWith(`Your turn to bid: Vacation ${YEAR}`))
    .map((m) => addresses.get(m.to[0]!));

describe('bid turn notices', () => {
  it('tell each member once when their turn begins, by a pick or a lapsed window', async () => {
    const vacation = await org.post('/time_off_types', { label: 'Vacation', work_code: 'VAC' });
    expect(vacation.status, vacation.text).toBe(201);
    const opensAt = Temporal.Now.plainDateTimeISO(org.timezone)
      .subtract({ minutes: 1 })
      .round({ smallestUnit: 'second', roundingMode: 'floor' })
      .toString()
      .replace('T', ' ');
    const round = await org.post('/bid_rounds', {
      name: `Vacation ${YEAR}`,
      year: YEAR,
      time_off_type_ids: [vacation.body.id],
      user_ids: [members[2], members[0], members[1]],
      turn_minutes: 60,
      opens_at: opensAt,
    });
    expect(round.status, round.text).toBe(201);
    const notifier = server.app.workers.bidTurns;
    // a draft round tells nobody
    expect(await notifier.runOnce()).toBe(0);
    expect((await org.post(`/bid_rounds/${round.body.id}/open`)).status).toBe(200);
    expect(await notifier.runOnce()).toBe(1);
    expect(await notifier.runOnce()).toBe(0);
    expect(told()).toEqual([members[0]]);
    // Ada picks: Ben's turn begins at once
    const picked = await org.post(`/bid_rounds/${round.body.id}/picks`, {
      user_id: members[0],
      start_date: `${YEAR}-07-05`,
      end_date: `${YEAR}-07-05`,
      time_off_type_id: vacation.body.id,
    });
    expect(picked.status, picked.text).toBe(201);
    expect(await notifier.runOnce()).toBe(1);
    expect(told()).toEqual([members[0], members[1]]);
    expect(mail.mails.at(-1)!.text).toContain(
      `It is your turn to pick your days off in Vacation ${YEAR} (${YEAR}), until`,
    );
    // Ben lets his window lapse: Cy is told an hour on, once
    const later = Date.now() + 61 * 60_000;
    expect(await notifier.runOnce(later)).toBe(1);
    expect(await notifier.runOnce(later)).toBe(0);
    expect(told()).toEqual([members[0], members[1], members[2]]);
  });
});
