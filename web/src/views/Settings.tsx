import type { Session } from '../api';
import { LeaveRules } from './settings/LeaveRules';
import { ListSettings } from './settings/ListSettings';
import { StaffingRules } from './settings/StaffingRules';
import { TypeSettings } from './settings/TypeSettings';

/**
 * Settings a chief changes weekly (admins), through the API's own routes: time off types, callback
 * lists, and the contract's rules (who may be off, station minimums, fatigue rules).
 */
export function Settings({ session }: { session: Session }) {
  if (!session.user.is_admin)
    return (
      <section>
        <h1>Settings</h1>
        <p>Only an admin changes the settings.</p>
      </section>
    );
  return (
    <div>
      <h1>Settings</h1>
      <TypeSettings />
      <ListSettings />
      <LeaveRules />
      <StaffingRules />
    </div>
  );
}
