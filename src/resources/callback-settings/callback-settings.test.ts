import { describe, expect, it } from 'vitest';
import { expectAuthRequired, expectNotFoundForOtherOrg } from '../../../test/helpers/common.js';
import { useOrgs } from '../../../test/helpers/server.js';

const { server, org, other } = await useOrgs();
const userId = await org.createUser({ first_name: 'Dana', last_name: 'Night' });

const path = () => `/users/${userId}/callback_settings`;

describe('GET /users/{user_id}/callback_settings (extension)', () => {
  it('answers the defaults before anything was saved', async () => {
    const response = await org.get(path());
    expect(response).toAnswer(200, {
      user_id: userId,
      contact_method: null,
      do_not_disturb_start: null,
      do_not_disturb_end: null,
    });
  });

  it('needs a token, and another organization gets 404', async () => {
    await expectAuthRequired(server, 'GET', `/v1${path()}`);
    await expectNotFoundForOtherOrg(other, 'GET', path());
  });
});

describe('PUT /users/{user_id}/callback_settings (extension)', () => {
  it('replaces the settings, logs the change, and fields left out become null', async () => {
    const saved = await org.put(path(), {
      contact_method: 'Text (SMS)',
      do_not_disturb_start: '22:00',
      do_not_disturb_end: '06:30',
    });
    expect(saved).toAnswer(200, {
      user_id: userId,
      contact_method: 'Text (SMS)',
      do_not_disturb_start: '22:00',
      do_not_disturb_end: '06:30',
    });
    expect((await org.get(path())).body).toEqual(saved.body);
    const log = await org.get('/logs', { query: { limit: 5 } });
    expect(log.body.data[0].event_description).toContain('replaced the callback contact settings of Dana Night');

    const replaced = await org.put(path(), { contact_method: 'Email' });
    expect(replaced.body).toEqual({
      user_id: userId,
      contact_method: 'Email',
      do_not_disturb_start: null,
      do_not_disturb_end: null,
    });
  });

  it('refuses bad values with 422 naming the fields, and writes nothing', async () => {
    await org.put(path(), { contact_method: 'Mobile App' });
    const half = await org.put(path(), { do_not_disturb_start: '22:00' });
    expect(half).toBeInvalid(['The do not disturb start and do not disturb end must be given together.']);
    const same = await org.put(path(), { do_not_disturb_start: '22:00', do_not_disturb_end: '22:00' });
    expect(same.body.error_message).toEqual(['The do not disturb end must differ from the do not disturb start.']);
    const bad = await org.put(path(), { contact_method: 'Carrier pigeon', do_not_disturb_start: '25:00' });
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.body.error_message)).toMatch(/contact method/i);
    expect(JSON.stringify(bad.body.error_message)).toMatch(/do not disturb start/i);
    expect((await org.get(path())).body.contact_method).toBe('Mobile App');
  });

  it('404 for a user of another organization', async () => {
    await expectNotFoundForOtherOrg(other, 'PUT', path(), { contact_method: 'Email' });
    expect((await org.get(path())).body.contact_method).not.toBe('Email');
  });
});
