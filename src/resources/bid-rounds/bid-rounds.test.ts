import { beforeAll, describe, expect, it } from 'vitest';
import { expectAuthRequired } from '../../../test/helpers/common.js';
import { useOrgs } from '../../../test/helpers/server.js';
import { Temporal } from '../../core/time.js';
import { createAssignment, createRotation, placeOnRotation } from '../rotations/test-fixtures.js';
import { postTimeOff } from '../time-offs/test-fixtures.js';

/*
 * Vacation bidding (docs/contract-rules.md): five members of Station 4 bid in seniority order,
 * one pick per 60-minute turn. The round opened 61 minutes ago, so the most senior member's window
 * has lapsed: their turn passed. Crew A works the 24/48 rotation anchored 2027-03-01 (03-01, 03-04, …),
 * and at most one of them may be off on vacation a day (a refusing off limit).
 */

const { server, org } = await useOrgs();
let admin: number;
let vacation: number;
let groupId: number;
let limitId: number;
const crew: number[] = [];
// created out of order: seniority (date of hire) decides the round's order
const HIRES: Array<[string, string]> = [
  ['Dana', '2012-05-01'],
  ['Abe', '2001-02-01'],
  ['Eve', '2015-09-01'],
  ['Cal', '2009-07-01'],
  ['Bea', '2005-03-01'],
];
const bySeniority = () => [1, 4, 3, 0, 2].map((i) => crew[i]!);

const localMinutesAgo = (minutes: number) =>
  Temporal.Now.plainDateTimeISO(org.timezone)
    .subtract({ minutes })
    .round({ smallestUnit: 'second', roundingMode: 'floor' })
    .toString()
    .replace('T', ' ');

const balance = async (user: number) =>
  (await org.get(`/users/${user}/timeoff/accrual/bank`)).body.find(
    (b: { time_off_type: { id: string } }) => b.time_off_type.id === String(vacation),
  )?.hours;

const pick = (round: number, userId: number, date: string, end = date) =>
  org.post(`/bid_rounds/${round}/picks`, {
    user_id: userId,
    start_date: date,
    end_date: end,
    time_off_type_id: vacation,
  });

async function openRound(name: string, minutesAgo: number) {
  const made = await org.post('/bid_rounds', {
    name,
    year: 2027,
    time_off_type_ids: [vacation],
    group_id: groupId,
    turn_minutes: 60,
    opens_at: localMinutesAgo(minutesAgo),
  });
  expect(made.status, made.text).toBe(201);
  const opened = await org.post(`/bid_rounds/${made.body.id}/open`);
  expect(opened.status, opened.text).toBe(200);
  return made.body.id as number;
}

beforeAll(async () => {
  admin = await org.createUser({ first_name: 'Ann', last_name: 'Admin' });
  const type = await org.post('/time_off_types', {
    label: 'Vacation',
    work_code: 'VAC',
    primary_color: '#3f5647',
    secondary_color: '#FFFFFF',
  });
  vacation = (type.body.id ?? type.body.time_off_type?.id) as number;
  groupId = (await org.post('/groups', { name: 'Station 4' })).body.id;
  const engine = await createAssignment(org, {
    name: 'Engine 4',
    start: '2027-03-01 07:00:00',
    end: '2027-03-02 07:00:00',
    positions_to_fill: 50,
  });
  const rotation = await createRotation(org, { anchor_date: '2027-03-01', preset: '24/48' });
  for (let i = 0; i < 30; i += 1) {
    const [first, hired] = HIRES[i] ?? ['Crew', '2020-01-01'];
    const id = await org.createUser({ first_name: first, last_name: `Four${i}`, date_of_hire: hired });
    crew.push(id);
    await placeOnRotation(org, { user_id: id, rotation_id: rotation, assignment_id: engine, crew: 'A' });
    if (i < 5) {
      expect((await org.put(`/users/${id}/groups`, { ids: [groupId] })).status).toBe(200);
      const credit = { time_off_type_id: vacation, hours: 100, admin_id: admin };
      expect((await org.post(`/users/${id}/timeoff/accrual/bank`, credit)).status).toBe(201);
    }
  }
  const limit = await org.post('/off_limits', {
    name: 'One on vacation',
    max_off: 1,
    action: 'refuse',
    time_off_type_ids: [vacation],
  });
  expect(limit.status, limit.text).toBe(201);
  limitId = limit.body.id;
});

describe('a bid round of five members', () => {
  let round: number;

  beforeAll(async () => {
    round = await openRound('Vacation 2027', 61);
  });

  it('lists members in seniority order; the lapsed first window passed the turn to the second', async () => {
    const seen = (await org.get(`/bid_rounds/${round}`)).body;
    expect(seen.members.map((m: { user_id: number }) => m.user_id)).toEqual(bySeniority());
    expect(seen.members.map((m: { date_of_hire: string }) => m.date_of_hire)).toEqual([
      '2001-02-01',
      '2005-03-01',
      '2009-07-01',
      '2012-05-01',
      '2015-09-01',
    ]);
    expect(seen.status).toBe('open');
    expect(seen.members[0].turns).toEqual([
      { turn: 1, kind: 'pass', time_off_id: null, start_date: null, end_date: null, time_off_type_id: null },
    ]);
    expect(seen.current_turn).toMatchObject({ turn: 2, user_id: bySeniority()[1] });
    expect(seen.current_turn.from).toBe(
      Temporal.PlainDateTime.from(seen.opens_at.replace(' ', 'T')).add({ minutes: 60 }).toString().replace('T', ' '),
    );
    expect((await org.get('/bid_rounds')).body.map((r: { id: number }) => r.id)).toContain(round);
  });

  it('a member out of turn is refused with whose turn it is', async () => {
    const early = await pick(round, bySeniority()[2]!, '2027-03-04');
    expect(early.status).toBe(422);
    expect(early.text).toContain("Bea Four4's turn (turn 2) until");
    const missed = await pick(round, bySeniority()[0]!, '2027-03-04');
    expect(missed.status).toBe(422);
  });

  it('each pick is approved time off charged to the bank; the off limit refuses a taken day', async () => {
    const [, second, third, fourth, fifth] = bySeniority();
    const first = await pick(round, second!, '2027-03-01');
    expect(first.status, first.text).toBe(201);
    const entry = (await org.get(`/time_offs/${first.body.time_off_id}`)).body;
    expect(JSON.stringify(entry)).toContain('"status":1');
    expect(await balance(second!)).toBe(76);
    expect((await org.get(`/bid_rounds/${round}`)).body.current_turn).toMatchObject({ turn: 3, user_id: third });
    expect((await pick(round, third!, '2027-03-04')).status).toBe(201);
    expect((await pick(round, fourth!, '2027-03-07')).status).toBe(201);
    // 03-01 is taken: the off limit refuses it, names the rule, and the turn stays
    const taken = await pick(round, fifth!, '2027-03-01');
    expect(taken.status).toBe(422);
    expect(taken.body.off_limits[0].off_limit).toMatchObject({ id: limitId, name: 'One on vacation' });
    expect(await balance(fifth!)).toBe(100);
    expect((await pick(round, fifth!, '2027-03-10')).status).toBe(201);
    expect(await balance(fifth!)).toBe(76);
    const seen = (await org.get(`/bid_rounds/${round}`)).body;
    expect(seen.current_turn).toBeNull();
    expect(seen.members.map((m: { turns: Array<{ kind: string }> }) => m.turns.map((t) => t.kind))).toEqual([
      ['pass'],
      ['pick'],
      ['pick'],
      ['pick'],
      ['pick'],
    ]);
    expect(seen.members[1].turns[0]).toMatchObject({ turn: 2, start_date: '2027-03-01', end_date: '2027-03-01' });
    const over = await pick(round, second!, '2027-03-13');
    expect(over.status).toBe(422);
    expect(over.text).toContain('Every turn of the bid round is taken');
  });

  it('pause stops the clock, open resumes, close ends picks', async () => {
    const other = await openRound('Pausing', 10);
    const paused = await org.post(`/bid_rounds/${other}/pause`);
    expect(paused.body).toMatchObject({ status: 'paused', current_turn: { turn: 1, until: null } });
    expect((await pick(other, bySeniority()[0]!, '2027-03-13')).status).toBe(422);
    expect((await org.post(`/bid_rounds/${other}/pause`)).status).toBe(422);
    const resumed = await org.post(`/bid_rounds/${other}/open`);
    expect(resumed.body).toMatchObject({ status: 'open', current_turn: { turn: 1 } });
    expect((await org.post(`/bid_rounds/${other}/close`)).body.status).toBe('closed');
    expect((await pick(other, bySeniority()[0]!, '2027-03-13')).status).toBe(422);
  });
});

describe('the last slot of a day', () => {
  it('50 parallel requests (picks of the member whose turn it is and direct entries): exactly one wins', async () => {
    const round = await openRound('Race', 0);
    const date = '2027-03-16';
    const answers = await Promise.all([
      ...Array.from({ length: 25 }, () => pick(round, bySeniority()[0]!, date)),
      ...crew
        .slice(5, 30)
        .map((id) =>
          postTimeOff(org, { userId: id, adminId: admin, start: date, end: date, typeId: vacation, status: 1 }),
        ),
    ]);
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 422)).toHaveLength(49);
    // the losers wrote nothing: one time off on the day, and the round's turn moved only if the pick won
    const winner = answers.findIndex((a) => a.status === 201);
    const seen = (await org.get(`/bid_rounds/${round}`)).body;
    expect(seen.current_turn.turn).toBe(winner < 25 ? 2 : 1);
    expect(seen.members[0].turns).toHaveLength(winner < 25 ? 1 : 0);
  });

  it('needs a token', async () => {
    await expectAuthRequired(server, 'GET', '/bid_rounds');
  });

  it('refuses a round without members or with unknown types, naming each field', async () => {
    const bad = await org.post('/bid_rounds', {
      name: 'Bad',
      year: 2027,
      time_off_type_ids: [999999],
      turn_minutes: 60,
      opens_at: '2027-01-01 08:00:00',
    });
    expect(bad.status).toBe(422);
    expect(bad.text).toContain('time off type');
    expect(bad.text).toContain('group id or user ids');
  });
});

describe("an off limit that requires an admin's approval", () => {
  it("refuses a member's own pick past it (no admin approved it); an admin's pick for them goes over it", async () => {
    const other = await server.newOrg();
    const year = Temporal.Now.plainDateISO(other.timezone).year + 1;
    const type = (await other.post('/time_off_types', { label: 'Vacation', work_code: 'VAC' })).body.id as number;
    const group = (await other.post('/groups', { name: 'Station 9' })).body.id as number;
    const engine = await createAssignment(other, {
      name: 'Engine 9',
      start: `${year}-03-01 07:00:00`,
      end: `${year}-03-02 07:00:00`,
      positions_to_fill: 5,
    });
    const rotation = await createRotation(other, { anchor_date: `${year}-03-01`, preset: '24/48' });
    const chief = await other.createUser({ first_name: 'Chief', last_name: 'Nine', role: 'Admin' });
    const [off, bidder] = [
      await other.createUser({ first_name: 'Olga', last_name: 'Off' }),
      await other.createUser({ first_name: 'Ben', last_name: 'Bidder', date_of_hire: '2001-01-01' }),
    ];
    for (const id of [off, bidder])
      await placeOnRotation(other, { user_id: id, rotation_id: rotation, assignment_id: engine, crew: 'A' });
    expect((await other.put(`/users/${bidder}/groups`, { ids: [group] })).status).toBe(200);
    const limit = await other.post('/off_limits', { name: 'One off', max_off: 1, action: 'require_approval' });
    expect(limit.status, limit.text).toBe(201);
    const taken = await postTimeOff(other, {
      userId: off,
      adminId: chief,
      start: `${year}-03-04`,
      end: `${year}-03-04`,
      typeId: type,
      status: 1,
    });
    expect(taken.status, taken.text).toBe(201);
    const made = await other.post('/bid_rounds', {
      name: 'Nine',
      year,
      time_off_type_ids: [type],
      group_id: group,
      turn_minutes: 60,
      opens_at: Temporal.Now.plainDateTimeISO(other.timezone)
        .round({ smallestUnit: 'second', roundingMode: 'floor' })
        .toString()
        .replace('T', ' '),
    });
    expect(made.status, made.text).toBe(201);
    expect((await other.post(`/bid_rounds/${made.body.id}/open`)).status).toBe(200);
    const body = (date: string) => ({
      user_id: bidder,
      start_date: date,
      end_date: date,
      time_off_type_id: type,
    });

    const session = await other.signIn(bidder);
    const refused = await session.post(`/bid_rounds/${made.body.id}/picks`, body(`${year}-03-04`));
    expect(refused.status, refused.text).toBe(422);
    expect(refused.body.error_message).toEqual([
      `The off limit One off allows at most 1 off on ${year}-03-04; already off: Olga Off; ` +
        "a pick past it needs an admin's approval: an admin may pick it for you.",
    ]);
    expect(refused.body.off_limits[0].off_limit).toMatchObject({ id: limit.body.id, action: 'require_approval' });
    const listed = await other.get(`/users/${bidder}/time_offs`, {
      query: { start: `${year}-03-01 00:00:00`, end: `${year}-04-01 00:00:00` },
    });
    expect(listed.body).toEqual([]);
    // the turn stays; an admin's pick for the member is the admin's approval over the limit
    const approved = await other.post(`/bid_rounds/${made.body.id}/picks`, body(`${year}-03-04`));
    expect(approved.status, approved.text).toBe(201);
  });
});
