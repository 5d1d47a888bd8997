import { useEffect, useRef, useState } from 'preact/hooks';
import { type ApiError, SIGNED_OUT_EVENT, sessions, type Session } from './api';
import { ErrorBox, Loading } from './components';
import { setOrganizationZone, today } from './dates';
import { Board } from './views/Board';
import { Callbacks } from './views/Callbacks';
import { Events } from './views/Events';
import { MySchedule } from './views/MySchedule';
import { OfferBanner, useOpenOffers } from './views/OfferBanner';
import { Offers } from './views/Offers';
import { Settings } from './views/Settings';
import { SkipLinks } from './skip';
import { SignIn } from './views/SignIn';
import { TimeOff } from './views/TimeOff';
import { Trades } from './views/Trades';

type SessionState =
  | { state: 'checking' }
  | { state: 'signed-out' }
  | { state: 'error'; message: string }
  | { state: 'signed-in'; session: Session };

/** The view without a hash: the agenda at phone width, elsewhere the day (admins) or the month (see Page). */
export const PHONE_QUERY = '(max-width: 640px)';
const home = () => (window.matchMedia(PHONE_QUERY).matches ? '#/agenda' : '#/');

function useHash(): [string, (hash: string) => void] {
  const [hash, setHash] = useState(location.hash || home());
  const current = useRef(hash);
  useEffect(() => {
    const update = () => {
      const next = location.hash || home();
      // a new view (not another date of the same one): keyboard users continue at its content
      if (current.current.split('/')[1] !== next.split('/')[1])
        document.getElementById('main')?.focus({ preventScroll: true });
      current.current = next;
      setHash(next);
    };
    window.addEventListener('hashchange', update);
    return () => window.removeEventListener('hashchange', update);
  }, []);
  return [hash, (next) => (location.hash = next)];
}

const NAV = [
  ['#/day', 'Day'],
  ['#/agenda', 'Agenda'],
  ['#/month', 'Month'],
  ['#/week', 'Week'],
  ['#/roster', 'Roster'],
  ['#/mine', 'My schedule'],
  ['#/time-off', 'Time off'],
  ['#/trades', 'Trades'],
  ['#/events', 'Sign-ups'],
  ['#/callbacks', 'Callbacks'],
  ['#/offers', 'My offers'],
  ['#/settings', 'Settings'],
] as const;

const BOARD_VIEWS = ['#/day', '#/agenda', '#/month', '#/week', '#/roster'];

function Page({ hash, session, navigate }: { hash: string; session: Session; navigate: (hash: string) => void }) {
  const [, route, date] = hash.split('/');
  switch (route) {
    case 'day':
      return <Board key="day" mode="day" anchor={date || today()} navigate={navigate} session={session} />;
    case 'week':
      return <Board key="week" mode="week" anchor={date || today()} navigate={navigate} session={session} />;
    case 'agenda':
      return <Board key="agenda" mode="agenda" anchor={date || today()} navigate={navigate} session={session} />;
    case 'roster':
      return <Board key="roster" mode="roster" anchor={date || today()} navigate={navigate} session={session} />;
    case 'mine':
      return <MySchedule session={session} />;
    case 'time-off':
      return <TimeOff session={session} />;
    case 'trades':
      return <Trades session={session} />;
    case 'events':
      return <Events session={session} />;
    case 'offers':
      return <Offers session={session} />;
    case 'callbacks':
      return <Callbacks session={session} />;
    case 'settings':
      return <Settings session={session} />;
    case 'month':
      return <Board key="month" mode="month" anchor={date || today()} navigate={navigate} session={session} />;
    default:
      return session.user.is_admin ? (
        <Board key="day" mode="day" anchor={today()} navigate={navigate} session={session} />
      ) : (
        <Board key="month" mode="month" anchor={today()} navigate={navigate} session={session} />
      );
  }
}

/**
 * Renders again when the organization's date changes (checked every minute): a board left open
 * overnight, on today's view (no date in its hash), moves to the new today.
 */
function useDateChange(): void {
  const [, setDay] = useState(today());
  useEffect(() => {
    const timer = setInterval(() => setDay(today()), 60_000);
    return () => clearInterval(timer);
  }, []);
}

export function App() {
  const [session, setSession] = useState<SessionState>({ state: 'checking' });
  const [hash, navigate] = useHash();
  useDateChange();
  const check = () =>
    sessions.current().then(
      (current) => setSession({ state: 'signed-in', session: current }),
      (error: ApiError) =>
        setSession(error.status === 401 ? { state: 'signed-out' } : { state: 'error', message: error.message }),
    );
  useEffect(() => {
    void check();
    const signedOut = () => setSession({ state: 'signed-out' });
    window.addEventListener(SIGNED_OUT_EVENT, signedOut);
    return () => window.removeEventListener(SIGNED_OUT_EVENT, signedOut);
  }, []);

  if (session.state === 'checking') return <Loading what="your session" />;
  if (session.state === 'error') return <ErrorBox message={session.message} retry={check} />;
  if (session.state === 'signed-out')
    return <SignIn onSignedIn={(current) => setSession({ state: 'signed-in', session: current })} />;

  return (
    <SignedIn
      session={session.session}
      hash={hash}
      navigate={navigate}
      signedOut={() => setSession({ state: 'signed-out' })}
    />
  );
}

type SignedInProps = { session: Session; hash: string; navigate: (hash: string) => void; signedOut: () => void };

/** The header with the views (My offers with a badge of open offers), the open offer's banner and the view. */
function SignedIn({ session, hash, navigate, signedOut }: SignedInProps) {
  const { user, organization } = session;
  setOrganizationZone(organization.timezone);
  const [offers, reloadOffers] = useOpenOffers(session);
  const signOut = async () => {
    await sessions.signOut().catch(() => undefined);
    signedOut();
  };
  const active = `#/${hash.split('/')[1] || (user.is_admin ? 'day' : 'month')}`;
  return (
    <>
      <SkipLinks board={BOARD_VIEWS.includes(active)} />
      <header class="top no-print">
        <p class="brand">
          {organization.name}{' '}
          <span class="who">
            · {user.name}
            {user.is_admin ? ' (admin)' : ''}
          </span>
        </p>
        <nav aria-label="Views">
          <ul>
            {NAV.filter(([href]) => user.is_admin || href !== '#/settings').map(([href, label]) => (
              <li key={href}>
                <a href={href} aria-current={active === href ? 'page' : undefined}>
                  {label}
                  {href === '#/offers' && offers.length > 0 && (
                    <span class="badge">
                      {' '}
                      {offers.length}
                      <span class="visually-hidden"> open</span>
                    </span>
                  )}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <button type="button" onClick={signOut}>
          Sign out
        </button>
      </header>
      <p class="print-only print-header">{organization.name}: schedule</p>
      <main id="main" tabIndex={-1}>
        {!hash.startsWith('#/offers') && <OfferBanner session={session} offers={offers} reload={reloadOffers} />}
        <Page hash={hash} session={session} navigate={navigate} />
      </main>
    </>
  );
}
