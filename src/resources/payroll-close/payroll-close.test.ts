import { describe, expect, it } from 'vitest';
import { useOrgs } from '../../../test/helpers/server.js';

/** GET/PATCH /payroll_close (extension; docs/time-off.md, "Closed payroll periods"). */
const { org, other } = await useOrgs();

describe('the payroll close', () => {
  it('starts with nothing closed, closes through a date and reopens, each change logged', async () => {
    expect((await org.get('/payroll_close')).body).toEqual({ closed_through: null });
    const closed = await org.patch('/payroll_close', { closed_through: '2027-01-31' });
    expect(closed.status, closed.text).toBe(200);
    expect(closed.body).toMatchObject({ payroll_close: { closed_through: '2027-01-31' } });
    expect((await org.get('/payroll_close')).body).toEqual({ closed_through: '2027-01-31' });
    expect((await org.patch('/payroll_close', { closed_through: null })).body.payroll_close).toEqual({
      closed_through: null,
    });
    const log = JSON.stringify((await org.get('/logs')).body);
    expect(log).toContain('updated the payroll close (closed_through).');
  });

  it('refuses a date that is not one, naming the field, and changes nothing', async () => {
    await org.patch('/payroll_close', { closed_through: '2027-02-28' });
    const bad = await org.patch('/payroll_close', { closed_through: '2027-02-30x' });
    expect(bad.status).toBe(422);
    expect(bad.body.error_message).toContain('The closed through is not a valid date (YYYY-MM-DD).');
    expect((await org.get('/payroll_close')).body).toEqual({ closed_through: '2027-02-28' });
  });

  it("keeps each organization's close its own", async () => {
    await org.patch('/payroll_close', { closed_through: '2027-03-31' });
    expect((await other.get('/payroll_close')).body).toEqual({ closed_through: null });
  });
});
