import type { DayTimeOff } from '../../types';

/**
 * A time off's type as the API shows it to the signed-in user (a masked type is "Off" to those who
 * may not see it, docs/time-off.md#masked-types); printed, a board hangs on the station's wall, so
 * a masked type prints as its public name even for an admin.
 */
export function TypeName({ type, short = false }: { type: DayTimeOff['time_off_type']; short?: boolean }) {
  const shown = short ? (type.work_code ?? type.name) : type.name;
  if (type.public_name === undefined || type.public_name === shown) return <>{shown}</>;
  return (
    <>
      <span class="no-print">{shown}</span>
      <span class="print-inline">{type.public_name}</span>
    </>
  );
}
