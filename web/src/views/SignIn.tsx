import { useState } from 'preact/hooks';
import { sessions, type Session } from '../api';
import { ErrorBox } from '../components';

const ORG_KEY = 'crewplan.organization';

export function SignIn({ onSignedIn }: { onSignedIn: (session: Session) => void }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const organization = String(form.get('organization'));
    setBusy(true);
    setError(null);
    try {
      const session = await sessions.signIn(
        Number(organization),
        String(form.get('username')),
        String(form.get('password')),
      );
      localStorage.setItem(ORG_KEY, organization);
      onSignedIn(session);
    } catch (e) {
      setError((e as Error).message);
      setBusy(false);
    }
  };
  return (
    <main class="sign-in">
      <form onSubmit={submit} class="card form" aria-labelledby="sign-in-title">
        <h1 id="sign-in-title">Sign in to crewplan</h1>
        {error && <ErrorBox message={error} />}
        <label>
          Organization number
          <input
            name="organization"
            inputMode="numeric"
            pattern="[0-9]+"
            required
            defaultValue={localStorage.getItem(ORG_KEY) ?? ''}
            autoComplete="organization"
            aria-describedby="organization-hint"
          />
          <small id="organization-hint" class="note">
            The number your administrator gave you: it is printed by <code>org create</code> and <code>seed demo</code>{' '}
            when the organization is created.
          </small>
        </label>
        <label>
          Username
          <input name="username" required autoComplete="username" autoCapitalize="none" />
        </label>
        <label>
          Password
          <input name="password" type="password" required autoComplete="current-password" />
        </label>
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
