import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestOrg, type TestServer } from '../../../test/helpers/server.js';
import { listWithMembers } from '../callbacks/test-fixtures.js';
import { createAssignment, workTypeId } from '../rotations/test-fixtures.js';

/**
 * POST /shifts `for_vacancy` (extension): the board's "Fill" names the open seat it read; once that
 * seat is filled (by another admin, at the same moment or before) the fill is refused with 409 and
 * nothing is written. Without the field the request behaves as the spec says (it may over-staff).
 * Dates are fixed far from today.
 */
let server: TestServer;
let org: TestOrg;
let adminId: number;
let regular: number;

interface Read {
  date: string;
  start: string;
  end: string;
}

const people = (count: number, tag: string) =>
  Promise.all(
    Array.from({ length: count }, (_, i) => org.createUser({ first_name: `${tag}${i}`, last_name: 'Filler' })),
  );

async function vacancyOf(assignmentId: number, date: string): Promise<Read | undefined> {
  const response = await org.get('/vacancies', {
    query: { start: `${date} 00:00:00`, end: `${date} 23:59:59`, assignment_id: assignmentId },
  });
  expect(response.status, response.text).toBe(200);
  const found = (response.body.vacancies ?? response.body) as Array<Read & { assignment: { id: number } }>;
  const entry = found.find((v) => v.assignment?.id === assignmentId && v.date === date);
  return entry && { date: entry.date, start: entry.start, end: entry.end };
}

const fill = (assignmentId: number, userId: number, read: Read, forVacancy: unknown = read) =>
  org.post('/shifts', {
    assignment_id: assignmentId,
    user_id: userId,
    date: read.date,
    start: read.start,
    end: read.end,
    work_type_id: regular,
    admin_id: adminId,
    ...(forVacancy ? { for_vacancy: forVacancy } : {}),
  });

async function shiftsOn(assignmentId: number, userIds: number[], read: Read): Promise<number> {
  let count = 0;
  for (const user of userIds) {
    const response = await org.get('/shifts', { query: { user_id: user, start: read.start, end: read.end } });
    count += (response.body as Array<{ assignment_id: number }>).filter((s) => s.assignment_id === assignmentId).length;
  }
  return count;
}

/**
 * A 12-hour seat of a new assignment on `day`, read open, and a callback for it from a list of one
 * member: what a board Fill (by `filler`) and a callback acceptance (by `member`) race for.
 */
async function seatWithCallback(day: string, name: string, tag: string) {
  const assignmentId = await createAssignment(org, { name, start: `${day} 07:00:00`, end: `${day} 19:00:00` });
  const [filler, member] = await people(2, tag);
  const listId = await listWithMembers(org, `${tag} list`, [member!]);
  const read = (await vacancyOf(assignmentId, day))!;
  const started = await org.post('/callbacks', {
    list_id: listId,
    initiated_by: adminId,
    start: read.start,
    end: read.end,
    positions_to_fill: 1,
    deadline: '2095-01-01T00:00:00+00:00',
    assignment_id: assignmentId,
  });
  expect(started.status, started.text).toBe(201);
  const accept = () => org.post(`/callbacks/${started.body.id}/users`, { user_id: member, status: 'accepted' });
  return { assignmentId, filler: filler!, member: member!, read, accept, callbackId: started.body.id as number };
}

beforeAll(async () => {
  server = await startServer();
  org = await server.newOrg();
  adminId = await org.createUser({ first_name: 'Dana', last_name: 'Chief', role: 'Admin' });
  regular = await workTypeId(org);
});
afterAll(() => server.close());

describe('POST /shifts with for_vacancy (extension)', () => {
  it('of two admins filling the last seat at once, one is placed and the other gets 409', async () => {
    const assignmentId = await createAssignment(org, {
      name: 'Engine 7',
      start: '2090-03-01 07:00:00',
      end: '2090-03-02 07:00:00',
    });
    const users = await people(2, 'Race');
    const read = (await vacancyOf(assignmentId, '2090-03-10'))!;
    expect(read).toEqual({ date: '2090-03-10', start: '2090-03-10 07:00:00', end: '2090-03-11 07:00:00' });
    const answers = await Promise.all(users.map((user) => fill(assignmentId, user, read)));
    expect(answers.map((a) => a.status).sort(), answers.map((a) => a.text).join('\n')).toEqual([201, 409]);
    const refused = answers.find((a) => a.status === 409)!;
    expect(refused.body).toEqual({
      status: 409,
      error: 'conflict',
      error_message:
        'The open seat of Engine 7 on 2090-03-10 (2090-03-10 07:00 to 2090-03-11 07:00) has been filled since ' +
        'it was read; nothing was recorded. Read the schedule again.',
    });
    expect(await shiftsOn(assignmentId, users, read)).toBe(1);
    expect(await vacancyOf(assignmentId, '2090-03-10')).toBeUndefined();
  });

  it('fills every open seat and refuses only the fills past them, in parallel', async () => {
    const assignmentId = await createAssignment(org, {
      name: 'Medic 3',
      start: '2090-04-01 07:00:00',
      end: '2090-04-01 19:00:00',
      positions_to_fill: 2,
    });
    const users = await people(5, 'Two');
    const read = (await vacancyOf(assignmentId, '2090-04-10'))!;
    const answers = await Promise.all(users.map((user) => fill(assignmentId, user, read)));
    expect(answers.map((a) => a.status).sort(), answers.map((a) => a.text).join('\n')).toEqual([
      201, 201, 409, 409, 409,
    ]);
    expect(await shiftsOn(assignmentId, users, read)).toBe(2);
  });

  it('refuses a stale fill after the seat was filled; without the field the spec request over-staffs', async () => {
    const assignmentId = await createAssignment(org, {
      name: 'Ladder 2',
      start: '2090-05-01 07:00:00',
      end: '2090-05-02 07:00:00',
    });
    const [first, second, third] = await people(3, 'Stale');
    const read = (await vacancyOf(assignmentId, '2090-05-10'))!;
    expect((await fill(assignmentId, first!, read)).status).toBe(201);
    const stale = await fill(assignmentId, second!, read);
    expect(stale.status, stale.text).toBe(409);
    expect(await shiftsOn(assignmentId, [second!], read)).toBe(0);
    const spec = await fill(assignmentId, third!, read, null);
    expect(spec.status, spec.text).toBe(201);
    expect(await shiftsOn(assignmentId, [first!, second!, third!], read)).toBe(2);
  });

  it('refuses an occurrence that no longer occurs at the hours read', async () => {
    const assignmentId = await createAssignment(org, {
      name: 'Rescue 1',
      start: '2090-06-01 07:00:00',
      end: '2090-06-02 07:00:00',
    });
    const [user] = await people(1, 'Moved');
    const read = { date: '2090-06-10', start: '2090-06-10 08:00:00', end: '2090-06-11 08:00:00' };
    const response = await fill(assignmentId, user!, read);
    expect(response.status, response.text).toBe(409);
    expect(response.body.error_message).toMatch(/no longer occurs at those hours; nothing was recorded/);
    expect(await shiftsOn(assignmentId, [user!], read)).toBe(0);
  });

  it('refuses a for_vacancy without its fields, naming each', async () => {
    const assignmentId = await createAssignment(org, { name: 'Tanker 1' });
    const [user] = await people(1, 'Bad');
    const read = { date: '2090-07-10', start: '2090-07-10 07:00:00', end: '2090-07-11 07:00:00' };
    const response = await fill(assignmentId, user!, read, { date: '2090-07-10' });
    expect(response.status, response.text).toBe(422);
    expect(JSON.stringify(response.body.error_message)).toMatch(/start/);
    expect(JSON.stringify(response.body.error_message)).toMatch(/end/);
  });

  it('of a Fill and a callback acceptance of the last seat at once, one is placed and the other gets 409', async () => {
    for (const [round, day] of ['2090-08-10', '2090-08-11', '2090-08-12', '2090-08-13'].entries()) {
      const { assignmentId, filler, member, read, accept } = await seatWithCallback(
        day,
        `Squad ${round}`,
        `Callback${round}`,
      );
      // the two orders alternate, so each request is the first to arrive in some round
      const answers = await Promise.all(
        round % 2 ? [accept(), fill(assignmentId, filler, read)] : [fill(assignmentId, filler, read), accept()],
      );
      const statuses = answers.map((a) => a.status);
      expect(
        statuses.filter((s) => s === 409),
        answers.map((a) => a.text).join('\n'),
      ).toHaveLength(1);
      expect(statuses.filter((s) => s !== 409)[0]).toBeOneOf([200, 201]);
      expect(await shiftsOn(assignmentId, [filler, member], read)).toBe(1);
    }
  });

  it('refuses a callback acceptance once the seat it fills was filled from the board', async () => {
    const day = '2090-09-10';
    const { assignmentId, filler, member, read, accept, callbackId } = await seatWithCallback(day, 'Brush 4', 'Late');
    expect((await fill(assignmentId, filler, read)).status).toBe(201);
    const late = await accept();
    expect(late.status, late.text).toBe(409);
    expect(late.body.error_message).toBe(
      `The open seat of Brush 4 on ${day} (${day} 07:00 to ${day} 19:00) has been filled since it was read; ` +
        'nothing was recorded. Read the schedule again.',
    );
    expect(await shiftsOn(assignmentId, [filler, member], read)).toBe(1);
    expect((await org.get(`/callbacks/${callbackId}`)).body.status).toBe('active');
  });
});
