import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWithOrgs, type TestOrg, type TestServer } from '../../../test/helpers/server.js';
import { sceneSteps, startingScene, type StartingScene } from '../callbacks/test-fixtures.js';

let server: TestServer;
let org: TestOrg;
let other: TestOrg;
let scene: StartingScene;
const { makeList, crew, startCallback } = sceneSteps(() => scene);

const OFF = {
  max_consecutive_hours: null,
  stretch_break_hours: 8,
  rest_hours: null,
  rest_after_hours: null,
  rest_within_hours: null,
  max_period_hours: null,
};

beforeAll(async () => {
  ({ server, org, other } = await startWithOrgs());
  scene = await startingScene(org);
});
afterAll(() => server.close());

async function setRules(rules: Record<string, unknown>) {
  const response = await org.patch('/fatigue_rules', { ...OFF, ...rules });
  expect(response.status, response.text).toBe(200);
}

const lastOverride = async () => {
  const log = (await org.get('/logs', { query: { limit: 5 } })).body.data as Array<Record<string, unknown>>;
  return log.find((e) => String(e.event_description).includes('over the fatigue rules'))?.event_description;
};

const shift = (userId: number, start: string, end: string, extra: Record<string, unknown> = {}) =>
  org.post('/shifts', {
    assignment_id: scene.stationId,
    user_id: userId,
    date: start.slice(0, 10),
    start,
    end,
    work_type_id: scene.workTypeId,
    ...extra,
  });

/** A 24-hour tour from 07:00 on the date. */
const tour = (userId: number, date: string, extra: Record<string, unknown> = {}) => {
  const next = new Date(`${date}T00:00:00Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return shift(userId, `${date} 07:00:00`, `${next.toISOString().slice(0, 10)} 07:00:00`, extra);
};

describe('GET/PATCH /fatigue_rules (extension)', () => {
  it('has every rule off by default, and changes only the fields sent', async () => {
    const fresh = await other.get('/fatigue_rules');
    expect(fresh.status).toBe(200);
    expect(fresh.body).toEqual({ ...OFF, period: { days: expect.any(Number), start: expect.any(String) } });
    const changed = await other.patch('/fatigue_rules', { max_consecutive_hours: 72 });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.fatigue_rules.max_consecutive_hours).toBe(72);
    expect(changed.body.fatigue_rules.rest_hours).toBeNull();
    await other.patch('/fatigue_rules', { max_consecutive_hours: null });
  });

  it('refuses half a rest rule and a window shorter than the hours worked, writing nothing', async () => {
    const half = await other.patch('/fatigue_rules', { rest_hours: 8 });
    expect(half).toBeInvalid([
      'The rest rule needs rest hours, rest after hours and rest within hours together (or all three null).',
    ]);
    const short = await other.patch('/fatigue_rules', { rest_hours: 8, rest_after_hours: 36, rest_within_hours: 30 });
    expect(short).toBeInvalid(['The rest within hours may not be fewer than the rest after hours.']);
    const negative = await other.patch('/fatigue_rules', { max_consecutive_hours: -1 });
    expect(negative.status).toBe(422);
    expect((await other.get('/fatigue_rules')).body.rest_hours).toBeNull();
  });
});

describe('most consecutive hours', () => {
  it("refuses a sixth 24-hour tour in a row with the rule's words, takes it with an override (logged)", async () => {
    const [medic] = await crew(1, 'Stretch');
    // with no rule set, five tours in a row are scheduled as before
    for (const date of ['2032-04-01', '2032-04-02', '2032-04-03', '2032-04-04', '2032-04-05'])
      expect((await tour(medic!, date)).status).toBe(201);
    await setRules({ max_consecutive_hours: 72 });
    const refused = await tour(medic!, '2032-04-06');
    expect(refused).toBeInvalid([
      "Stretch Member1 cannot take this shift: would work 144 h in a row; the department's limit is 72 h.",
    ]);
    const overridden = await tour(medic!, '2032-04-06', {
      override_reason: 'Storm emergency: no one else holds the license',
      admin_id: scene.adminId,
    });
    expect(overridden.status, overridden.text).toBe(201);
    const log = (await org.get('/logs', { query: { limit: 5 } })).body.data as Array<Record<string, unknown>>;
    const entry = log.find((e) => String(e.event_description).includes('over the fatigue rules'));
    expect(entry?.event_description).toBe(
      'John Doe put Stretch Member1 (2032-04-06 07:00 to 2032-04-07 07:00) to work over the fatigue rules ' +
        "(would work 144 h in a row; the department's limit is 72 h): Storm emergency: no one else holds the license",
    );
    // a stretch broken by 8 hours off starts again
    const [other2] = await crew(1, 'Rested');
    await tour(other2!, '2032-04-01');
    await tour(other2!, '2032-04-02');
    await tour(other2!, '2032-04-03');
    expect((await shift(other2!, '2032-04-04 15:00:00', '2032-04-05 15:00:00')).status).toBe(201);
    await setRules({});
  });

  it('refuses an edit that makes the stretch too long (the shift edited is not counted twice)', async () => {
    const [medic] = await crew(1, 'Edit');
    await tour(medic!, '2032-05-01');
    await tour(medic!, '2032-05-02');
    const third = await shift(medic!, '2032-05-03 07:00:00', '2032-05-03 19:00:00');
    await setRules({ max_consecutive_hours: 60 });
    const longer = await org.patch(`/shifts/${third.body.id}`, {
      date: '2032-05-03',
      start: '2032-05-03 07:00:00',
      end: '2032-05-04 07:00:00',
    });
    expect(longer).toBeInvalid([
      "Edit Member1 cannot take this shift: would work 72 h in a row; the department's limit is 60 h.",
    ]);
    const same = await org.patch(`/shifts/${third.body.id}`, {
      date: '2032-05-03',
      start: '2032-05-03 07:00:00',
      end: '2032-05-03 19:00:00',
      notes: 'unchanged hours',
    });
    expect(same.status, same.text).toBe(200);
    await setRules({});
  });
});

describe('rest after a long stretch', () => {
  it('requires 8 h off after 36 h worked within 44 h', async () => {
    const [medic] = await crew(1, 'Rest');
    await setRules({ rest_hours: 8, rest_after_hours: 36, rest_within_hours: 44 });
    expect((await tour(medic!, '2032-06-01')).status).toBe(201);
    // 4 h after a 24 h tour, 16 more hours: 40 h within 44 h
    expect(await shift(medic!, '2032-06-02 11:00:00', '2032-06-03 03:00:00')).toBeInvalid([
      'Rest Member1 cannot take this shift: would work 40 h within 44 h without 8 h off; ' +
        'the department requires 8 h off after 36 h worked within 44 h.',
    ]);
    // 12 more hours is 36 h: allowed; after 8 h off, 16 h are allowed too
    const allowed = await shift(medic!, '2032-06-02 11:00:00', '2032-06-02 23:00:00');
    expect(allowed.status, allowed.text).toBe(201);
    expect((await shift(medic!, '2032-06-03 07:00:00', '2032-06-03 23:00:00')).status).toBe(201);
    await setRules({});
  });
});

describe('most hours per work period', () => {
  it('refuses hours above the limit in the FLSA 7(k) work period', async () => {
    const [medic] = await crew(1, 'Period');
    const period = await org.patch('/work_period', { days: 7, start: '2032-07-05 00:00:00' });
    expect(period.status, period.text).toBe(200);
    await setRules({ max_period_hours: 56 });
    expect((await tour(medic!, '2032-07-05')).status).toBe(201);
    expect((await tour(medic!, '2032-07-08')).status).toBe(201);
    expect(await tour(medic!, '2032-07-10')).toBeInvalid([
      'Period Member1 cannot take this shift: would work 72 h in the work period 2032-07-05 00:00–2032-07-12 00:00; ' +
        "the department's limit is 56 h.",
    ]);
    // the next period starts afresh
    expect((await tour(medic!, '2032-07-12')).status).toBe(201);
    await setRules({});
  });

  it('counts misc hours of a date and a length in the period holding their date, as overtime does', async () => {
    const [medic] = await crew(1, 'Dated');
    expect((await org.patch('/work_period', { days: 7, start: '2032-07-05 00:00:00' })).status).toBe(200);
    await setRules({ max_period_hours: 56, max_consecutive_hours: 30 });
    expect((await tour(medic!, '2032-07-19')).status).toBe(201);
    const training = { user_id: medic, date: '2032-07-20', length: 12, work_type_id: scene.workTypeId, notes: 'Class' };
    expect((await org.post('/misc_hours', training)).status).toBe(201);
    const report = await org.get('/overtime', {
      query: { start: '2032-07-19 00:00:00', end: '2032-07-26 00:00:00', user_id: medic },
    });
    expect(report.body.map((row: { counted_hours: number }) => row.counted_hours)).toEqual([36]);
    // 24 + 12 + 24 = 60 h in the period; the 12 h have no place in time, so no stretch reaches 30 h
    expect(await tour(medic!, '2032-07-21')).toBeInvalid([
      'Dated Member1 cannot take this shift: would work 60 h in the work period 2032-07-19 00:00–2032-07-26 00:00; ' +
        "the department's limit is 56 h.",
    ]);
    // the next period starts afresh: the hours dated in this one do not follow
    expect((await tour(medic!, '2032-07-26')).status).toBe(201);
    await setRules({});
  });

  it('refuses misc hours of a date and a length over the period rule when made, unless overridden', async () => {
    const [medic] = await crew(1, 'Length');
    expect((await org.patch('/work_period', { days: 7, start: '2032-08-02 00:00:00' })).status).toBe(200);
    await setRules({ max_period_hours: 56 });
    expect((await tour(medic!, '2032-08-02')).status).toBe(201);
    expect((await tour(medic!, '2032-08-03')).status).toBe(201);
    const training = { user_id: medic, date: '2032-08-05', length: 12, work_type_id: scene.workTypeId, notes: 'Class' };
    // 48 h worked + 12 h dated in the period
    expect(await org.post('/misc_hours', training)).toBeInvalid([
      'Length Member1 cannot take these misc hours: would work 60 h in the work period 2032-08-02 00:00–' +
        "2032-08-09 00:00; the department's limit is 56 h.",
    ]);
    const listed = await org.get('/misc_hours', { query: { start: '2032-08-02', end: '2032-08-15', user_id: medic } });
    expect(listed.body).toEqual([]);
    // up to the limit, and in the next period, they are taken
    expect((await org.post('/misc_hours', { ...training, length: 8 })).status).toBe(201);
    expect((await org.post('/misc_hours', { ...training, date: '2032-08-09' })).status).toBe(201);
    const overridden = await org.post('/misc_hours', { ...training, override_reason: 'Recertification deadline' });
    expect(overridden.status, overridden.text).toBe(201);
    expect(await lastOverride()).toContain(
      ' put Length Member1 (misc hours of a date and a length, 12 h on 2032-08-05) to work over the fatigue ' +
        "rules (would work 68 h in the work period 2032-08-02 00:00–2032-08-09 00:00; the department's limit " +
        'is 56 h): Recertification deadline',
    );
    await setRules({});
  });
});

describe('callbacks', () => {
  it("skip a candidate with the rule's words", async () => {
    const [tired, fresh] = await crew(2, 'Callback');
    await tour(tired!, '2032-03-07');
    await tour(tired!, '2032-03-08');
    await tour(tired!, '2032-03-09');
    const listId = await makeList('Fatigue list', [tired!, fresh!]);
    await setRules({ max_consecutive_hours: 72 });
    const started = await startCallback(listId, { start: '2032-03-10 07:00:00', end: '2032-03-10 19:00:00' });
    expect(started.candidates.map((c) => c.user_id)).toEqual([fresh]);
    expect(started.skipped).toEqual([
      { user_id: tired, reason: "would work 84 h in a row; the department's limit is 72 h" },
    ]);
    await setRules({});
  });

  it('refuse an answer that breaks the rule since the start, unless an admin overrides it (logged)', async () => {
    const [tired] = await crew(1, 'Answer');
    await tour(tired!, '2032-05-07');
    await tour(tired!, '2032-05-08');
    await tour(tired!, '2032-05-09');
    const listId = await makeList('Answer list', [tired!]);
    const started = await startCallback(listId, { start: '2032-05-10 07:00:00', end: '2032-05-10 19:00:00' });
    expect(started.candidates.map((c) => c.user_id)).toEqual([tired]);
    await setRules({ max_consecutive_hours: 72 });
    const answer = { user_id: tired, status: 'accepted' };
    expect(await org.post(`/callbacks/${started.id}/users`, answer)).toBeInvalid([
      `Answer Member1 can no longer take callback #${started.id}: would work 84 h in a row; the department's ` +
        'limit is 72 h.',
    ]);
    const overridden = await org.post(`/callbacks/${started.id}/users`, {
      ...answer,
      override_reason: 'Only medic who answered',
    });
    expect(overridden.status, overridden.text).toBe(200);
    const log = (await org.get('/logs', { query: { limit: 5 } })).body.data as Array<Record<string, unknown>>;
    expect(log.map((e) => String(e.event_description))).toContain(
      `John Doe put Answer Member1 (callback #${started.id}, 2032-05-10 07:00:00 to 2032-05-10 19:00:00) to work ` +
        "over the fatigue rules (would work 84 h in a row; the department's limit is 72 h): Only medic who answered",
    );
    await setRules({});
  });
});

describe('sign-ups and moved rotation occurrences', () => {
  it('refuse a sign-up over the rule, unless an admin overrides it', async () => {
    const [medic] = await crew(1, 'Signup');
    await shift(medic!, '2032-10-01 08:00:00', '2032-10-02 08:00:00');
    const event = await org.post('/signup_events', {
      admin_id: scene.adminId,
      title: 'Parade',
      start: '2032-10-02 08:00:00',
      end: '2032-10-02 20:00:00',
      employees_needed: 2,
      work_type_id: scene.workTypeId,
    });
    expect(event.status, event.text).toBe(201);
    await setRules({ max_consecutive_hours: 24 });
    const refused = await org.post(`/signup_events/${event.body.id}/users`, { user_id: medic });
    expect(refused).toBeInvalid([
      "Signup Member1 cannot take event Parade: would work 36 h in a row; the department's limit is 24 h.",
    ]);
    expect((await org.get(`/signup_events/${event.body.id}/users`)).body).toEqual([]);
    const overridden = await org.post(`/signup_events/${event.body.id}/users`, {
      user_id: medic,
      override_reason: 'Short-handed parade detail',
    });
    expect(overridden.status, overridden.text).toBe(201);
    await setRules({});
  });

  it("count a sign-up's hours as work: a shift next to a signed-up event is refused", async () => {
    const [medic] = await crew(1, 'Parade');
    const event = await org.post('/signup_events', {
      admin_id: scene.adminId,
      title: 'Fair',
      start: '2032-10-11 08:00:00',
      end: '2032-10-11 20:00:00',
      employees_needed: 1,
      work_type_id: scene.workTypeId,
    });
    expect(event.status, event.text).toBe(201);
    expect((await org.post(`/signup_events/${event.body.id}/users`, { user_id: medic })).status).toBe(201);
    await setRules({ max_consecutive_hours: 24 });
    const refused = await shift(medic!, '2032-10-10 08:00:00', '2032-10-11 08:00:00');
    expect(refused).toBeInvalid([
      "Parade Member1 cannot take this shift: would work 36 h in a row; the department's limit is 24 h.",
    ]);
    // the same span on the day after the event is rested enough
    expect((await shift(medic!, '2032-10-12 08:00:00', '2032-10-13 08:00:00')).status).toBe(201);
    await setRules({});
  });

  it("refuse moving an event's times next to a signed-up person's tour, unless an admin overrides it", async () => {
    const [medic] = await crew(1, 'Moved event');
    const body = {
      admin_id: scene.adminId,
      title: 'Drill',
      start: '2032-10-20 08:00:00',
      end: '2032-10-20 20:00:00',
      employees_needed: 1,
      work_type_id: scene.workTypeId,
    };
    const event = await org.post('/signup_events', body);
    expect(event.status, event.text).toBe(201);
    expect((await org.post(`/signup_events/${event.body.id}/users`, { user_id: medic })).status).toBe(201);
    expect((await shift(medic!, '2032-10-21 08:00:00', '2032-10-22 08:00:00')).status).toBe(201);
    await setRules({ max_consecutive_hours: 24 });
    const later = { ...body, start: '2032-10-20 20:00:00', end: '2032-10-21 08:00:00' };
    const refused = await org.put(`/signup_events/${event.body.id}`, later);
    expect(refused).toBeInvalid([
      "Moved event Member1 cannot take event Drill: would work 36 h in a row; the department's limit is 24 h.",
    ]);
    expect((await org.get(`/signup_events/${event.body.id}`)).body.start).toBe('2032-10-20 08:00:00');
    // a change that keeps the times is not weighed again
    expect((await org.put(`/signup_events/${event.body.id}`, { ...body, title: 'Drill 2' })).status).toBe(200);
    const overridden = await org.put(`/signup_events/${event.body.id}`, {
      ...later,
      override_reason: 'Night drill ordered by the chief',
    });
    expect(overridden.status, overridden.text).toBe(200);
    expect((await org.get(`/signup_events/${event.body.id}`)).body.start).toBe('2032-10-20 20:00:00');
    await setRules({});
  });

  it('refuse moving a rotation occurrence next to another tour, unless an admin overrides it', async () => {
    const [medic] = await crew(1, 'Rotation');
    const rotation = await org.post('/rotations', {
      name: 'Fatigue 24/48',
      anchor_date: '2032-09-01',
      preset: '24/48',
    });
    expect(rotation.status, rotation.text).toBe(201);
    const series = await org.post('/recurring_shifts', {
      user_id: medic,
      rotation_id: rotation.body.id,
      assignment_id: scene.stationId,
      crew: 'A',
      start_date: '2032-09-01',
    });
    expect(series.status, series.text).toBe(201);
    await setRules({ max_consecutive_hours: 36 });
    const move = { date: '2032-09-04', action: 'move', start: '2032-09-02 08:00:00', end: '2032-09-03 08:00:00' };
    const refused = await org.post(`/recurring_shifts/${series.body.id}/exceptions`, move);
    expect(refused).toBeInvalid([
      "Rotation Member1 cannot take this occurrence: would work 48 h in a row; the department's limit is 36 h.",
    ]);
    const overridden = await org.post(`/recurring_shifts/${series.body.id}/exceptions`, {
      ...move,
      override_reason: 'Crew swap agreed by the chief',
    });
    expect(overridden.status, overridden.text).toBe(201);
    await setRules({});
  });

  it('refuse a trade whose taker would break the rule, with its words', async () => {
    const [tired, giver] = await crew(2, 'Trade');
    await tour(tired!, '2032-11-01');
    await tour(tired!, '2032-11-02');
    await shift(giver!, '2032-11-03 07:00:00', '2032-11-04 07:00:00');
    await setRules({ max_consecutive_hours: 48 });
    const body = {
      requesting_user: giver,
      start: '2032-11-03 07:00:00',
      end: '2032-11-04 07:00:00',
      approving_user_id: scene.adminId,
      accepting_user_id: tired,
      approve: true,
    };
    const trade = await org.post('/trades', body);
    expect(trade).toBeInvalid([
      "Trade Member1 cannot take this trade: would work 72 h in a row; the department's limit is 48 h.",
    ]);
    // an admin's override_reason fills it, logged on the trade; other reasons still refuse
    const overridden = await org.post('/trades', {
      ...body,
      override_reason: 'Holiday staffing agreed with the union',
    });
    expect(overridden.status, overridden.text).toBe(201);
    const log = (await org.get('/logs', { query: { limit: 5 } })).body.data as Array<Record<string, unknown>>;
    const entries = log.filter((e) => String(e.event_description).includes('over the fatigue rules'));
    expect(entries.map((e) => e.event_description)).toEqual([
      `John Doe put Trade Member1 (trade #${overridden.body.id}) to work over the fatigue rules (would work 72 h ` +
        "in a row; the department's limit is 48 h): Holiday staffing agreed with the union",
    ]);
    await setRules({});
  });
});

describe('rotation placements and misc hours', () => {
  const rotationOf = async (name: string, anchor: string) => {
    const rotation = await org.post('/rotations', { name, anchor_date: anchor, preset: '24/48' });
    expect(rotation.status, rotation.text).toBe(201);
    return rotation.body.id as number;
  };
  const place = (userId: number, rotationId: number, crewName: string, extra: Record<string, unknown> = {}) =>
    org.post('/recurring_shifts', {
      user_id: userId,
      rotation_id: rotationId,
      assignment_id: scene.stationId,
      crew: crewName,
      start_date: '2032-12-01',
      ...extra,
    });

  it('refuse placing a person on a rotation next to their other tour, unless an admin overrides it', async () => {
    const rotationId = await rotationOf('Placement 24/48', '2032-12-01');
    const [medic] = await crew(1, 'Placed');
    // crew A works from 08:00 on 2032-12-01; the tour after it makes 48 h in a row
    expect((await shift(medic!, '2032-12-02 08:00:00', '2032-12-03 08:00:00')).status).toBe(201);
    await setRules({ max_consecutive_hours: 36 });
    const refused = await place(medic!, rotationId, 'A');
    expect(refused).toBeInvalid([
      'Placed Member1 cannot take the 2032-12-01 occurrence of this series: would work 48 h in a row; ' +
        "the department's limit is 36 h.",
    ]);
    expect((await org.get('/recurring_shifts', { query: { user_id: medic } })).body).toEqual([]);
    // from a tour a day after the shift, rested, it is placed as before
    const rested = await place(medic!, rotationId, 'A', { start_date: '2032-12-04' });
    expect(rested.status, rested.text).toBe(201);
    const ended = await org.del(`/recurring_shifts/${rested.body.id}`, undefined, {
      query: { effective_date: '2032-12-04' },
    });
    expect(ended.status, ended.text).toBe(200);
    const overridden = await place(medic!, rotationId, 'A', {
      override_reason: 'Only paramedic for A platoon',
      admin_id: scene.adminId,
    });
    expect(overridden.status, overridden.text).toBe(201);
    expect(await lastOverride()).toBe(
      `John Doe put Placed Member1 (the 2032-12-01 occurrence of this series, recurring shift ${overridden.body.id}) ` +
        "to work over the fatigue rules (would work 48 h in a row; the department's limit is 36 h): " +
        'Only paramedic for A platoon',
    );
    await setRules({});
  });

  it('refuse moving a person to another platoon next to their other work, unless an admin overrides it', async () => {
    const rotationId = await rotationOf('Platoon move 24/48', '2032-12-01');
    const [medic] = await crew(1, 'Moved');
    const series = await place(medic!, rotationId, 'B');
    expect(series.status, series.text).toBe(201);
    // 12 h off after crew B's 2032-12-02 tour; ends as crew A's 2032-12-04 tour starts
    expect((await shift(medic!, '2032-12-03 20:00:00', '2032-12-04 08:00:00')).status).toBe(201);
    await setRules({ max_consecutive_hours: 30 });
    const move = { crew: 'A', effective_date: '2032-12-01' };
    const refused = await org.patch(`/recurring_shifts/${series.body.id}`, move);
    expect(refused).toBeInvalid([
      'Moved Member1 cannot take the 2032-12-04 occurrence of this series: would work 36 h in a row; ' +
        "the department's limit is 30 h.",
    ]);
    expect((await org.get(`/recurring_shifts/${series.body.id}`)).body.crew_offset).toBe(series.body.crew_offset);
    // a change of anything but when or where they work is not weighed again
    expect((await org.patch(`/recurring_shifts/${series.body.id}`, { notes: 'Medic' })).status).toBe(200);
    const overridden = await org.patch(`/recurring_shifts/${series.body.id}`, {
      ...move,
      override_reason: 'Platoon swap agreed by the chief',
    });
    expect(overridden.status, overridden.text).toBe(200);
    expect(overridden.body.crew_offset).not.toBe(series.body.crew_offset);
    await setRules({});
  });

  it('refuse misc hours with times that break the rule, unless an admin overrides it', async () => {
    const [medic] = await crew(1, 'Misc');
    expect((await shift(medic!, '2032-12-10 08:00:00', '2032-12-11 08:00:00')).status).toBe(201);
    await setRules({ max_consecutive_hours: 30 });
    const training = {
      user_id: medic,
      date: '2032-12-11',
      start: '2032-12-11 08:00:00',
      end: '2032-12-11 20:00:00',
      work_type_id: scene.workTypeId,
      notes: 'Training',
    };
    const refused = await org.post('/misc_hours', training);
    expect(refused).toBeInvalid([
      "Misc Member1 cannot take these misc hours: would work 36 h in a row; the department's limit is 30 h.",
    ]);
    const listed = await org.get('/misc_hours', { query: { start: '2032-12-11', user_id: medic } });
    expect(listed.body).toEqual([]);
    // hours without times are not placed in the day: taken as before
    const { start: _s, end: _e, ...lengthOnly } = training;
    expect((await org.post('/misc_hours', { ...lengthOnly, length: 12 })).status).toBe(201);
    const overridden = await org.post('/misc_hours', { ...training, override_reason: 'Recertification deadline' });
    expect(overridden.status, overridden.text).toBe(201);
    expect(await lastOverride()).toContain(
      ' put Misc Member1 (misc hours 2032-12-11 08:00 to 2032-12-11 20:00) to work over the fatigue rules ' +
        "(would work 36 h in a row; the department's limit is 30 h): Recertification deadline",
    );
    await setRules({});
  });
});
