import { expect } from 'vitest';
import type { TestOrg } from '../../../test/helpers/server.js';

/** A trade requested, accepted and approved in one request (POST /trades with `approve`): filled. Its id. */
export async function filledTrade(
  org: TestOrg,
  people: { requester: number; taker: number; admin: number },
  start: string,
  end: string,
  extra = {},
): Promise<number> {
  const response = await org.post('/trades', {
    requesting_user: people.requester,
    accepting_user_id: people.taker,
    approving_user_id: people.admin,
    start,
    end,
    approve: true,
    ...extra,
  });
  expect(response.status, response.text).toBe(201);
  expect(response.body.trade_status).toBe('filled');
  return response.body.id as number;
}
