import { beforeAll, describe, expect, it } from 'vitest';
import { expectAuthRequired } from '../../../test/helpers/common.js';
import { useOrgs } from '../../../test/helpers/server.js';
import { createAssignment, createRotation, placeOnRotation } from '../rotations/test-fixtures.js';
import { postTimeOff } from '../time-offs/test-fixtures.js';

/*
 * Limits on who may be off (docs/contract-rules.md), as a department meets them: four A-platoon
 * paramedics ask for the same day under "at most 2 paramedics off on platoon A". On the 24/48
 * rotation anchored 2027-03-01, crew A works 03-01, 03-04, 03-07, … (07:00 to 07:00).
 */

const { server, org, other } = await useOrgs();
let admin: number;
let vacation: number;
let sick: number;
let paramedic: number;
let ruleId: number;
const medics: number[] = [];
const bMedics: number[] = [];
const names = new Map<number, string>();

async function user(first: string, last: string) {
  const id = await org.createUser({ first_name: first, last_name: last });
  names.set(id, `${first} ${last}`);
  return id;
}

async function typeId(label: string) {
  const created = await org.post('/time_off_types', {
    label,
    work_code: label.slice(0, 3).toUpperCase(),
    primary_color: '#3f5647',
    secondary_color: '#FFFFFF',
  });
  expect(created.status, created.text).toBeLessThan(300);
  return (created.body.id ?? created.body.time_off_type?.id) as number;
}

/** A member's own request of one date (date-only leave: the tour that starts that day). */
const request = (userId: number, date: string, type = vacation) =>
  org.post(`/users/${userId}/time_offs`, {
    admin_ids: [admin],
    start_date: date,
    end_date: date,
    time_off_type_id: type,
  });

/** An admin's entry, approved at once. */
const approved = (userId: number, date: string, type = vacation) =>
  postTimeOff(org, { userId, adminId: admin, start: date, end: date, typeId: type, status: 1 });

const aDay = (n: number) => `2027-03-${String(1 + 3 * n).padStart(2, '0')}`;

async function twoOff(date: string) {
  for (const medic of medics.slice(0, 2)) expect((await approved(medic, date)).status).toBe(201);
}

const message = (date: string, outcome: string) =>
  `The off limit Paramedics on A allows at most 2 off on ${date}; already off: ` +
  `${names.get(medics[0]!)}, ${names.get(medics[1]!)}; ${outcome}.`;

const notice = (date: string, action: string, outcome: string) => ({
  off_limit: { id: ruleId, name: 'Paramedics on A', max_off: 2, action },
  date,
  message: message(date, outcome),
  others_off: medics.slice(0, 2).map((id) => ({ id, name: names.get(id), time_off_id: expect.any(Number) })),
});

beforeAll(async () => {
  admin = await user('Ann', 'Admin');
  vacation = await typeId('Vacation');
  sick = await typeId('Sick');
  await org.post('/qualifiers', { name: 'Paramedic', shortcode: 'PM' });
  paramedic = (await org.get('/qualifiers')).body.find((q: { name: string }) => q.name === 'Paramedic').id;
  const medic1 = await createAssignment(org, {
    name: 'Medic 1',
    start: '2027-03-01 07:00:00',
    end: '2027-03-02 07:00:00',
  });
  const medic2 = await createAssignment(org, {
    name: 'Medic 2',
    start: '2027-03-01 07:00:00',
    end: '2027-03-02 07:00:00',
  });
  const rotation = await createRotation(org, { anchor_date: '2027-03-01', preset: '24/48' });
  for (const [i, last] of ['Able', 'Baker', 'Cole', 'Dunn'].entries()) {
    const id = await user('Medic', last);
    medics.push(id);
    await org.post(`/users/${id}/qualifiers`, { id: paramedic });
    await placeOnRotation(org, {
      user_id: id,
      rotation_id: rotation,
      assignment_id: i < 2 ? medic1 : medic2,
      crew: 'A',
    });
  }
  for (const last of ['Bell', 'Burr', 'Byrd']) {
    const id = await user('Bravo', last);
    bMedics.push(id);
    await org.post(`/users/${id}/qualifiers`, { id: paramedic });
    await placeOnRotation(org, { user_id: id, rotation_id: rotation, assignment_id: medic1, crew: 'B' });
  }
  for (let n = 0; n < 10; n += 1) {
    const cycle = await org.post('/visual_cycles', {
      name: 'A Shift',
      start: aDay(n),
      end: aDay(n),
      color: '#cc0000',
      text_color: '#ffffff',
    });
    expect(cycle.status, cycle.text).toBe(201);
  }
  const rule = await org.post('/off_limits', {
    name: 'Paramedics on A',
    max_off: 2,
    action: 'refuse',
    platoon: 'A Shift',
    qualifier_id: paramedic,
    time_off_type_ids: [vacation],
  });
  expect(rule.status, rule.text).toBe(201);
  ruleId = rule.body.id;
});

describe('/off_limits', () => {
  it('lists, shows and changes a rule', async () => {
    expect(await org.get(`/off_limits/${ruleId}`)).toAnswer(200, {
      id: ruleId,
      name: 'Paramedics on A',
      max_off: 2,
      action: 'refuse',
      platoon: 'A Shift',
      assignment_group_id: null,
      qualifier_id: paramedic,
      time_off_type_ids: [vacation],
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect((await org.get('/off_limits')).body.map((r: { id: number }) => r.id)).toEqual([ruleId]);
    expect(await other.get('/off_limits')).toAnswer(200, []);
    expect(await other.get(`/off_limits/${ruleId}`)).toBeNotFound('OffLimit');
  });

  it('names every failing field', async () => {
    const response = await org.post('/off_limits', {
      name: 'Bad',
      max_off: 1,
      action: 'refuse',
      assignment_group_id: 999999,
      qualifier_id: 999999,
      time_off_type_ids: [999998],
    });
    expect(response).toBeInvalid([
      'The selected group id is invalid.',
      'The selected qualifier id is invalid.',
      'The time off type ids 999998 name no time off type.',
    ]);
    expect((await org.get('/off_limits')).body).toHaveLength(1);
    const wrong = await org.post('/off_limits', { name: 'x', max_off: -1, action: 'maybe' });
    expect(wrong.status).toBe(422);
  });

  it('adds and removes a rule; requires a token', async () => {
    const created = await org.post('/off_limits', { name: 'Anyone', max_off: 40, action: 'warn' });
    expect(created).toSucceed(201, 'Off limit created successfully.', { id: expect.any(Number) });
    expect(await org.del(`/off_limits/${created.body.id}`)).toSucceed(200, 'Off limit removed successfully.');
    expect(await org.del(`/off_limits/${created.body.id}`)).toBeNotFound('OffLimit');
    await expectAuthRequired(server, 'GET', '/off_limits');
  });
});

describe('the third A-platoon paramedic off on one day', () => {
  it('refuse: the third request is a 422 naming the rule, the date and who is off; nothing is written', async () => {
    const date = aDay(1);
    await twoOff(date);
    const third = await request(medics[2]!, date);
    expect(third).toAnswer(422, {
      status: 422,
      error: 'invalid_params',
      error_message: [message(date, 'this time off is refused')],
      off_limits: [notice(date, 'refuse', 'this time off is refused')],
    });
    const mine = await org.get(`/users/${medics[2]}/time_offs`, { query: { start: date, end: '2027-03-31' } });
    expect(mine.body).toEqual([]);
    // another type is outside the rule; B platoon on its own day is outside it too
    expect((await request(medics[2]!, date, sick)).status).toBe(201);
    for (const id of bMedics) expect((await approved(id, '2027-03-02')).status).toBe(201);
  });

  it('warn: the third request is accepted with the warning', async () => {
    expect((await org.patch(`/off_limits/${ruleId}`, { action: 'warn' })).status).toBe(200);
    const date = aDay(2);
    await twoOff(date);
    const third = await request(medics[2]!, date);
    expect(third).toSucceed(201, 'Time off requested successfully.', {
      id: expect.any(Number),
      warnings: [notice(date, 'warn', 'allowed, with this warning')],
    });
  });

  it("warn: a member's edit of their request onto the full day is answered with the warning too", async () => {
    const [full, free] = [aDay(7), aDay(8)];
    await twoOff(full);
    const asked = await request(medics[3]!, free);
    expect(asked.status, asked.text).toBe(201);
    expect(asked.body.warnings).toBeUndefined();
    const moved = await org.patch(`/users/${medics[3]}/time_offs/${asked.body.id}`, {
      start_date: full,
      end_date: full,
    });
    expect(moved).toSucceed(200, 'Time off request updated successfully.', {
      id: asked.body.id,
      warnings: [notice(full, 'warn', 'allowed, with this warning')],
    });
    const back = await org.patch(`/users/${medics[3]}/time_offs/${asked.body.id}`, {
      start_date: free,
      end_date: free,
    });
    expect(back.status, back.text).toBe(200);
    expect(back.body.warnings).toBeUndefined();
  });

  it('require_approval: the request stays pending; an admin approves it over the limit', async () => {
    expect((await org.patch(`/off_limits/${ruleId}`, { action: 'require_approval' })).status).toBe(200);
    const date = aDay(3);
    await twoOff(date);
    const third = await request(medics[2]!, date);
    expect(third).toSucceed(201, 'Time off requested successfully.', {
      id: expect.any(Number),
      warnings: [notice(date, 'require_approval', 'the request stays pending until an admin approves it')],
    });
    const decision = await org.post(`/time_offs/${third.body.id}/approve`, {});
    expect(decision).toSucceed(200, 'Time off approved successfully.', {
      id: third.body.id,
      warnings: [notice(date, 'require_approval', 'approved by an admin over the limit')],
    });
  });

  it('refuse at approval: a pending request is refused when the day filled meanwhile', async () => {
    expect((await org.patch(`/off_limits/${ruleId}`, { action: 'refuse' })).status).toBe(200);
    const date = aDay(4);
    const pending = await request(medics[2]!, date);
    expect(pending.status, pending.text).toBe(201);
    expect(pending.body.warnings).toBeUndefined();
    await twoOff(date);
    const decision = await org.post(`/time_offs/${pending.body.id}/approve`, {});
    expect(decision.status).toBe(422);
    expect(decision.body.error_message).toEqual([message(date, 'this time off is refused')]);
    const still = await org.get(`/users/${medics[2]}/time_offs`, { query: { start: date, end: '2027-03-31' } });
    expect(still.body.map((t: { status: string }) => t.status)).toEqual(['0']);
  });
});

describe('blackout dates', () => {
  it('refuses time off of the type on a blacked-out date, naming the date', async () => {
    const blackout = await org.post('/time_off_blackouts', {
      time_off_type_id: vacation,
      start_date: '2027-07-04',
      end_date: '2027-07-04',
      reason: 'Fourth of July',
    });
    expect(blackout).toSucceed(201, 'Blackout dates added successfully.', { id: expect.any(Number) });
    const refused = await org.post(`/users/${bMedics[0]}/time_offs`, {
      admin_ids: [admin],
      start_date: '2027-07-03',
      end_date: '2027-07-05',
      time_off_type_id: vacation,
    });
    expect(refused).toBeInvalid([
      'Time off of type Vacation may not be requested on 2027-07-04: that date is blacked out (Fourth of July).',
    ]);
    expect((await approved(bMedics[0]!, '2027-07-04', sick)).status).toBe(201);
    expect(await org.get('/time_off_blackouts', { query: { time_off_type_id: vacation } })).toAnswer(200, [
      {
        id: blackout.body.id,
        time_off_type_id: vacation,
        start_date: '2027-07-04',
        end_date: '2027-07-04',
        reason: 'Fourth of July',
      },
    ]);
    const bad = await org.post('/time_off_blackouts', {
      time_off_type_id: 999999,
      start_date: '2027-07-05',
      end_date: '2027-07-04',
    });
    expect(bad).toBeInvalid([
      'The selected time off type id is invalid.',
      'The end date must be on or after the start date.',
    ]);
    expect((await org.del(`/time_off_blackouts/${blackout.body.id}`)).status).toBe(200);
    expect((await approved(bMedics[0]!, '2027-07-05')).status).toBe(201);
  });
});

describe('the last slot of a day', () => {
  const crew: number[] = [];
  let limit: number;

  beforeAll(async () => {
    const engine = await createAssignment(org, {
      name: 'Engine 9',
      start: '2027-03-01 07:00:00',
      end: '2027-03-02 07:00:00',
      positions_to_fill: 50,
    });
    const rotation = await createRotation(org, { anchor_date: '2027-03-01', preset: '24/48' });
    for (let i = 0; i < 50; i += 1) {
      const id = await org.createUser({ first_name: 'Crew', last_name: `Nine${i}` });
      crew.push(id);
      await placeOnRotation(org, { user_id: id, rotation_id: rotation, assignment_id: engine, crew: 'A' });
    }
    const groupId = (await org.post('/assignment_groups', { name: 'Station 9', color: '#00aa00' })).body.id;
    expect((await org.put(`/assignments/${engine}/groups`, { ids: [Number(groupId)] })).status).toBe(200);
    const rule = await org.post('/off_limits', {
      name: 'Station 9',
      max_off: 1,
      action: 'refuse',
      assignment_group_id: Number(groupId),
    });
    expect(rule.status, rule.text).toBe(201);
    limit = rule.body.id;
  });

  it('leave on a day without work takes no slot: only work dated that day makes a person off', async () => {
    const anyone = await org.post('/off_limits', {
      name: 'One sick',
      max_off: 1,
      action: 'refuse',
      time_off_type_ids: [sick],
    });
    // the crew works A days: on the B day 2027-03-17 none of them is off, whatever leave they hold
    const bDay = await Promise.all(crew.slice(0, 3).map((id) => approved(id, '2027-03-17', sick)));
    expect(bDay.map((a) => a.status)).toEqual([201, 201, 201]);
    // on their A day 2027-03-28 the second one is refused
    expect((await approved(crew[0]!, '2027-03-28', sick)).status).toBe(201);
    const second = await approved(crew[1]!, '2027-03-28', sick);
    expect(second.status).toBe(422);
    expect(second.body.off_limits.map((n: { off_limit: { name: string } }) => n.off_limit.name)).toEqual([
      'Station 9',
      'One sick',
    ]);
    expect(second.body.off_limits[1].others_off).toEqual([
      { id: crew[0], name: 'Crew Nine0', time_off_id: expect.any(Number) },
    ]);
    expect((await org.del(`/off_limits/${anyone.body.id}`)).status).toBe(200);
  });

  it('50 parallel approved entries for the last slot: exactly one is written', async () => {
    const date = aDay(5);
    const answers = await Promise.all(crew.map((id) => approved(id, date)));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    const refused = answers.filter((a) => a.status === 422);
    expect(refused).toHaveLength(49);
    expect(refused[0]!.body.off_limits[0].off_limit).toEqual({
      id: limit,
      name: 'Station 9',
      max_off: 1,
      action: 'refuse',
    });
  });

  it('50 parallel approvals of pending requests for the last slot: exactly one wins', async () => {
    const date = aDay(6);
    const pending = await Promise.all(crew.map((id) => request(id, date)));
    expect(pending.map((p) => p.status)).toEqual(crew.map(() => 201));
    const decisions = await Promise.all(pending.map((p) => org.post(`/time_offs/${p.body.id}/approve`, {})));
    expect(decisions.filter((d) => d.status === 200)).toHaveLength(1);
    expect(decisions.filter((d) => d.status === 422)).toHaveLength(49);
  });
});
