import type { Session } from '../api';
import { ListSettings } from './settings/ListSettings';
import { TypeSettings } from './settings/TypeSettings';

/** Settings a chief changes weekly (admins): time off types and callback lists, through the API's own routes. */
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
    </div>
  );
}
