import type { Session } from '../api';
import { BidRounds } from './BidRounds';
import { AdminQueue } from './time-off/AdminQueue';
import { MyBalances, OwnRequests } from './time-off/OwnRequests';

export function TimeOff({ session }: { session: Session }) {
  return (
    <div>
      <h1>Time off</h1>
      {session.user.is_admin && <AdminQueue session={session} />}
      <MyBalances session={session} />
      <OwnRequests session={session} />
      {session.user.is_admin && <BidRounds />}
    </div>
  );
}
