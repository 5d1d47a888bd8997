import { expect } from 'vitest';
import type { ApiResponse, TestOrg } from '../../../test/helpers/server.js';

/** Test setup over HTTP for the suites that need time off entries. */

/** Who takes time off of which type from `start` to `end`; `status` (1 approved, 0 pending) when given. */
export interface TimeOffEntry {
  userId: number;
  adminId: number;
  typeId: number;
  start: string;
  end: string;
  status?: number;
}

/** POST /time_offs: the entry, with the other `fields` of the body. */
export function postTimeOff(org: TestOrg, entry: TimeOffEntry, fields: Record<string, unknown> = {}) {
  return org.post('/time_offs', {
    user_id: entry.userId,
    admin_ids: [entry.adminId],
    start_date: entry.start,
    end_date: entry.end,
    time_off_type_id: entry.typeId,
    status: entry.status,
    ...fields,
  });
}

/** {@link postTimeOff}, expecting 201; the response. */
export async function createTimeOff(
  org: TestOrg,
  entry: TimeOffEntry,
  fields: Record<string, unknown> = {},
): Promise<ApiResponse> {
  const response = await postTimeOff(org, entry, fields);
  expect(response.status, response.text).toBe(201);
  return response;
}
