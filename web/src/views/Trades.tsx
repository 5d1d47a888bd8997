import { useState } from 'preact/hooks';
import { call, client, type Session } from '../api';
import { Loaded } from '../components';
import { addDays, span, today } from '../dates';
import { useLoad } from '../hooks';
import { useChangeCount } from '../live';
import { Outcome, useAction } from './panel/action';
import { hours } from './time-off/shared';
import { TradeOffers } from './TradeOffers';

const DAYS_AHEAD = 28;
/** The roles the server takes for admins (src/core/auth/sessions.ts): who may approve a trade. */
const APPROVERS = new Set(['admin', 'administrator', 'scheduler']);

type Balance = Awaited<ReturnType<typeof loadTrades>>['balance'][number];

/** The user's payback balance, their shifts of the next four weeks, and the organization's people. */
async function loadTrades(userId: number) {
  const start = today();
  const end = addDays(start, DAYS_AHEAD - 1);
  const [balance, schedule, users] = await Promise.all([
    call(client.GET('/v1/users/{user_id}/trade_balance', { params: { path: { user_id: userId } } })),
    call(client.GET('/v1/schedule', { params: { query: { start: `${start} 00:00:00`, end: `${end} 23:59:59` } } })),
    call(client.GET('/v1/users')),
  ]);
  const shifts = schedule.days.flatMap((day) =>
    day.assignments.flatMap((a) =>
      a.shifts.filter((s) => s.user.id === userId).map((s) => ({ start: s.start, end: s.end, assignment: a.name })),
    ),
  );
  return { balance, shifts, users: users.filter((u) => Number(u.user_id) !== userId) };
}

/** "You owe Lee Crew 24 h · Lee Crew owes you 0 h", or that they have traded nothing. */
function balanceWords(name: string, balance: Balance | undefined): string {
  if (!balance) return `No trades with ${name} yet.`;
  return `You owe ${name} ${hours(balance.user_owes)} · ${name} owes you ${hours(balance.owes_user)}`;
}

/**
 * Trades (members on their phone): the payback balance with each person traded with (GET
 * /users/{me}/trade_balance), and a request to have someone work one of my shifts, showing what I
 * owe them and they owe me; an admin approves it (POST /trades, docs/webapp.md).
 */
export function Trades({ session }: { session: Session }) {
  const me = session.user.id;
  // read again whenever anything of the organization changes (GET /v1/changes): a trade offered to me shows at once
  const [changes] = useChangeCount();
  const [value, reload] = useLoad(() => loadTrades(me), [me], changes);
  const action = useAction();
  const [shift, setShift] = useState('');
  const [taker, setTaker] = useState('');
  const [approver, setApprover] = useState('');
  return (
    <section aria-labelledby="trades-title">
      <h1 id="trades-title">Trades</h1>
      <TradeOffers userId={me} changed={reload} refresh={changes} />
      <Loaded value={value} what="your trades" retry={reload}>
        {({ balance, shifts, users }) => {
          const approvers = users.filter((u) => APPROVERS.has((u.role ?? '').trim().toLowerCase()));
          const takerName = users.find((u) => String(u.user_id) === taker)?.full_name;
          const chosen = shifts[Number(shift)];
          const send = (event: Event) => {
            event.preventDefault();
            if (!chosen || !taker) return;
            void action.run(async () => {
              const trade = await call(
                client.POST('/v1/trades', {
                  body: {
                    requesting_user: me,
                    start: chosen.start,
                    end: chosen.end,
                    offered_user_ids: [Number(taker)],
                    approving_user_id: Number(approver || approvers[0]?.user_id),
                    notes: 'Requested from the trades view',
                  },
                }),
              );
              reload();
              return `Trade #${trade.id} requested: offered to ${takerName} for ${span(chosen.start, chosen.end)}; once they accept, an admin approves it.`;
            });
          };
          return (
            <>
              <h2 id="balance-title">Payback balance</h2>
              {balance.length === 0 ? (
                <p>No trades yet: nobody owes you hours and you owe nobody.</p>
              ) : (
                <ul class="balances" aria-labelledby="balance-title">
                  {balance.map((b) => (
                    <li key={b.user.id} data-counterpart={b.user.id}>
                      {balanceWords(b.user.name, b)}
                    </li>
                  ))}
                </ul>
              )}
              <h2 id="request-title">Request a trade</h2>
              {shifts.length === 0 ? (
                <p>You have no shift in the next four weeks to trade.</p>
              ) : (
                <form class="form request-form" aria-labelledby="request-title" onSubmit={send}>
                  <label>
                    My shift{' '}
                    <select required value={shift} onChange={(e) => setShift(e.currentTarget.value)}>
                      <option value="">Choose a shift</option>
                      {shifts.map((s, i) => (
                        <option key={s.start} value={String(i)}>
                          {s.assignment}, {span(s.start, s.end)}
                        </option>
                      ))}
                    </select>
                  </label>
                  <label>
                    Worked by{' '}
                    <select required value={taker} onChange={(e) => setTaker(e.currentTarget.value)}>
                      <option value="">Choose a person</option>
                      {users.map((u) => (
                        <option key={u.user_id} value={String(u.user_id)}>
                          {u.full_name}
                        </option>
                      ))}
                    </select>
                  </label>
                  {takerName && (
                    <p class="hint" data-balance-with={taker}>
                      {balanceWords(
                        takerName,
                        balance.find((b) => String(b.user.id) === taker),
                      )}
                    </p>
                  )}
                  <label>
                    Approved by{' '}
                    <select
                      value={approver || String(approvers[0]?.user_id ?? '')}
                      onChange={(e) => setApprover(e.currentTarget.value)}
                    >
                      {approvers.map((u) => (
                        <option key={u.user_id} value={String(u.user_id)}>
                          {u.full_name}
                        </option>
                      ))}
                    </select>
                  </label>
                  <button type="submit" class="primary" aria-disabled={action.busy}>
                    Request trade
                  </button>
                  <Outcome done={action.done} error={action.error} />
                </form>
              )}
            </>
          );
        }}
      </Loaded>
    </section>
  );
}
