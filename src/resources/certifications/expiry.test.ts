import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestOrg, type TestServer } from '../../../test/helpers/server.js';
import { addDays, formatDate, todayIn } from '../../core/time.js';
import { catchMail, type CaughtMail } from '../callbacks/test-fixtures.js';
import { createQualifier, workTypeId } from '../rotations/test-fixtures.js';
import { createShift } from '../shifts/test-fixtures.js';

let server: TestServer;
let org: TestOrg;
let mail: { mails: CaughtMail[]; close(): Promise<void> };
let today: string;
let medic: number;
let chief: number;
let medicUnit: number;
let certificationId: number;

beforeAll(async () => {
  mail = await catchMail();
  server = await startServer();
  org = await server.newOrg();
  today = formatDate(todayIn(org.timezone));
  const pm = await createQualifier(org, 'Paramedic', 'PM');
  const unit = await org.post('/assignments', {
    name: 'Medic 1',
    start: `${today} 07:00:00`,
    end: `${today} 19:00:00`,
    positions_to_fill: 1,
    rrule: 'FREQ=DAILY',
    qualifiers_needed: [{ id: pm, minimum_staffing: 1 }],
  });
  expect(unit.status, unit.text).toBe(201);
  medicUnit = unit.body.id ?? unit.body.assignment?.id;
  medic = await org.createUser({ first_name: 'Mia', last_name: 'Medic', emails: ['mia@crewplan.test'] });
  chief = await org.createUser({
    first_name: 'Carl',
    last_name: 'Chief',
    role: 'Admin',
    emails: ['chief@crewplan.test'],
  });
  const cert = await org.post('/certifications', { name: 'Paramedic licence', cert_id: 'pm', created_by: chief });
  expect(cert.status, cert.text).toBe(201);
  certificationId = cert.body.id;
  const held = await org.post(`/users/${medic}/certifications`, {
    id: certificationId,
    expires_on: addDays(today, 20),
  });
  expect(held.status, held.text).toBe(201);
  const regular = await workTypeId(org);
  for (const date of [addDays(today, 10), addDays(today, 21)]) {
    await createShift(org, medicUnit, medic, `${date} 07:00:00`, `${date} 19:00:00`, { work_type_id: regular });
  }
});
afterAll(async () => {
  await server.close();
  await mail.close();
});

describe('GET /certifications/expiring (extension)', () => {
  it('lists who loses which certification when, with the scheduled work its loss leaves short', async () => {
    const response = await org.get('/certifications/expiring', { query: { days: 60 } });
    expect(response.status, response.text).toBe(200);
    const expires = addDays(today, 20);
    const after = addDays(today, 21);
    expect(response.body).toEqual({
      as_of: today,
      days: 60,
      data: [
        {
          user: { id: medic, name: 'Mia Medic', href: `${server.url}/v1/users/${medic}` },
          user_certification_id: expect.any(Number),
          certification: { id: certificationId, name: 'Paramedic licence', cert_id: 'pm' },
          expires_on: expires,
          lost_on: after,
          days_left: 20,
          qualifier: { id: expect.any(Number), shortcode: 'PM' },
          // the shift before the expiry still counts her as PM; the one after does not
          staffing_cost: [
            {
              assignment: { id: medicUnit, name: 'Medic 1' },
              date: after,
              start: `${after} 07:00:00`,
              end: `${after} 19:00:00`,
              qualifier: { id: expect.any(Number), shortcode: 'PM', needed: 1, have: 0 },
            },
          ],
        },
      ],
    });
    const sooner = await org.get('/certifications/expiring', { query: { days: 10 } });
    expect(sooner.body.data).toEqual([]);
    expect((await org.get('/certifications/expiring', { query: { days: 'soon' } })).status).toBe(422);
  });
});

describe('expiry notices', () => {
  it('tell the holder and the admins once per certification and threshold', async () => {
    const notifier = server.app.workers.expiryNotices;
    expect(await notifier.runOnce()).toBe(1);
    expect(await notifier.runOnce()).toBe(0);
    const expires = addDays(today, 20);
    const emailOf = async (id: number) => (await org.get(`/users/${id}`)).body.emails[0] as string;
    /** each mail's recipient and its subject */
    const sent = () => mail.mails.map((m) => [m.to[0], m.subject]);
    expect(sent().sort()).toEqual(
      [
        [await emailOf(chief), `Mia Medic's certification Paramedic licence expires on ${expires}, in 20 days`],
        [await emailOf(medic), `Your certification Paramedic licence expires on ${expires}, in 20 days`],
      ].sort(),
    );
    const text = mail.mails[0]!.text;
    expect(text).toContain(`Medic 1 ${addDays(today, 21)} 07:00`);
    expect(text).toContain('0 of 1 PM without it');
    // 15 days on, the 7-day threshold is reached: told again, once
    const later = () => addDays(today, 15);
    expect(await notifier.runOnce(later)).toBe(1);
    expect(await notifier.runOnce(later)).toBe(0);
    expect(mail.mails).toHaveLength(4);
    expect(
      sent()
        .slice(2)
        .map(([, subject]) => subject),
    ).toContain(`Your certification Paramedic licence expires on ${expires}, in 5 days`);
  });
});

describe('expiry notice thresholds per organization', () => {
  it('sends notices at the days the organization sets, once each', async () => {
    const station = await server.newOrg({ name: 'Thresholds' });
    expect((await station.get('/certifications/expiry_notices')).body).toEqual({ days: [60, 30, 7] });
    expect((await station.patch('/certifications/expiry_notices', { days: [0, 3] })).status).toBe(422);
    expect((await station.patch('/certifications/expiry_notices', { days: [3, 3] })).status).toBe(422);
    const changed = await station.patch('/certifications/expiry_notices', { days: [3, 14] });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.expiry_notices).toEqual({ days: [14, 3] });
    // a medic whose licence expires in 20 days: not told at 20 (the default would tell at 30), told at 14 and 3
    const holder = await station.createUser({
      first_name: 'Tess',
      last_name: 'Threshold',
      emails: ['tess@crewplan.test'],
    });
    const cert = await station.post('/certifications', { name: 'EMT card', cert_id: 'emt', created_by: holder });
    expect(cert.status, cert.text).toBe(201);
    const held = await station.post(`/users/${holder}/certifications`, {
      id: cert.body.id,
      expires_on: addDays(today, 20),
    });
    expect(held.status, held.text).toBe(201);
    const notifier = server.app.workers.expiryNotices;
    const address = (await station.get(`/users/${holder}`)).body.emails[0] as string;
    const subjects = () => mail.mails.filter((m) => m.to[0] === address).length;
    await notifier.runOnce();
    expect(subjects()).toBe(0);
    expect(await notifier.runOnce(() => addDays(today, 6))).toBe(1);
    expect(await notifier.runOnce(() => addDays(today, 6))).toBe(0);
    expect(subjects()).toBe(1);
    await notifier.runOnce(() => addDays(today, 17));
    expect(subjects()).toBe(2);
  });
});
