import { call, client } from '../../api';
import type { Shift } from '../../types';

let sickType: Promise<{ id: string | number; label: string } | undefined> | undefined;

/**
 * The type "Mark sick" records: the organization's choice (`sick_leave` on one type), not a name.
 * Asked for once and shared (call {@link preloadSickType} as a view opens, so the button sends one request).
 */
export function preloadSickType() {
  sickType ??= call(client.GET('/v1/time_off_types')).then((types) => types.find((t) => t.sick_leave));
  sickType.catch(() => {
    sickType = undefined;
  });
  return sickType;
}

/**
 * Records approved sick leave over the shift as the board read it. `for_shift` names the shift: the
 * server refuses (409) a shift that has moved or ended since, rather than record leave on a day the
 * person no longer works. Returns the type's label.
 */
export async function markSick(shift: Shift, adminId: number): Promise<string> {
  const sick = await preloadSickType();
  if (!sick) throw new Error('No time off type is set as the sick leave type (sick_leave): set one first.');
  await call(
    client.POST('/v1/time_offs', {
      body: {
        user_id: shift.user.id,
        admin_ids: [adminId],
        start_date: shift.start,
        end_date: shift.end,
        time_off_type_id: Number(sick.id),
        status: 1,
        for_shift: { id: shift.id, recurring: shift.recurring, start: shift.start, end: shift.end },
      },
    }),
  );
  return sick.label;
}
