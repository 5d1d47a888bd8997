import { expect } from 'vitest';
import type { ApiResponse, TestOrg } from '../../../test/helpers/server.js';

/** Test setup over HTTP for the suites that need one-off shifts. */

/**
 * POST /shifts: a one-off shift of `userId` on `assignmentId` from `start` to `end`, dated the start's day,
 * with `fields` (work_type_id at least; they may name another date); expects 201 and returns the response.
 */
export async function createShift(
  org: TestOrg,
  assignmentId: number,
  userId: number,
  start: string,
  end: string,
  fields: Record<string, unknown>,
): Promise<ApiResponse> {
  const response = await org.post('/shifts', {
    assignment_id: assignmentId,
    user_id: userId,
    date: start.slice(0, 10),
    start,
    end,
    ...fields,
  });
  expect(response.status, response.text).toBe(201);
  return response;
}
