import { describe, expect, it } from 'vitest';
import { firstEmail } from './mail.js';

describe('firstEmail', () => {
  it('reads the first address of a user’s list', () => {
    expect(firstEmail('["a@example.com","b@example.com"]')).toBe('a@example.com');
  });

  it('finds none in an empty, missing or malformed list, rather than failing the send', () => {
    for (const emails of [null, undefined, '', '[]', '[""]', '[1]', 'null', '{"0":"a@example.com"}', '["a@', 'x']) {
      expect(firstEmail(emails)).toBeUndefined();
    }
  });
});
