import { call, client } from '../api';
import { Loaded } from '../components';
import { span } from '../dates';
import { useLoad } from '../hooks';
import type { BidRound } from '../types';
import { Outcome, useAction } from './panel/action';
import { BidRoundForm } from './time-off/BidRoundForm';

type Move = 'open' | 'pause' | 'close';

/** The moves a round's status allows (docs/contract-rules.md, "Vacation bidding"), with their buttons' words. */
const MOVES: Record<string, Array<[Move, string]>> = {
  draft: [
    ['open', 'Open'],
    ['close', 'Close'],
  ],
  open: [
    ['pause', 'Pause'],
    ['close', 'Close'],
  ],
  paused: [
    ['open', 'Resume'],
    ['close', 'Close'],
  ],
  closed: [],
};

const DONE: Record<Move, string> = { open: 'is open', pause: 'is paused', close: 'is closed' };

/** One move through the typed client: each move is its own route. */
function moveRound(id: number, to: Move): Promise<BidRound> {
  const params = { path: { id } };
  if (to === 'open') return call(client.POST('/v1/bid_rounds/{id}/open', { params }));
  if (to === 'pause') return call(client.POST('/v1/bid_rounds/{id}/pause', { params }));
  return call(client.POST('/v1/bid_rounds/{id}/close', { params }));
}

/** "Turn 3: Ann Lee, until 2027-01-05 09:00" or, paused, that the clock stands still. */
function turnWords(round: BidRound): string {
  const turn = round.current_turn;
  if (round.status === 'closed') return 'Closed: no more picks.';
  if (!turn) return round.status === 'draft' ? `Opens ${round.opens_at.slice(0, 16)} once opened.` : 'No turn left.';
  const when = turn.until ? span(turn.from, turn.until) : 'the clock stands still while paused';
  return `Turn ${turn.turn}: ${turn.name} (${when})`;
}

/** One round's card: its status, whose turn it is, and the moves an admin may make. */
function RoundCard({ round, reload }: { round: BidRound; reload: () => void }) {
  const action = useAction();
  const facts = `${round.members.length} members · ${round.turn_minutes} min a turn`;
  const move = (to: Move) => {
    if (to === 'close' && !confirm(`Close ${round.name}? Members can no longer pick.`)) return;
    void action.run(async () => {
      try {
        const moved = await moveRound(round.id, to);
        return `${moved.name} ${DONE[to]}.`;
      } finally {
        reload();
      }
    });
  };
  return (
    <li class="card bid-round" data-round={round.id} aria-labelledby={`round-${round.id}`}>
      <p class="card-title" id={`round-${round.id}`}>
        {round.name} ({round.year})
      </p>
      <p>
        Status: <span class="round-status">{round.status}</span> · {facts}
      </p>
      <p class="round-turn">{turnWords(round)}</p>
      {(MOVES[round.status] ?? []).length > 0 && (
        <p class="actions">
          {(MOVES[round.status] ?? []).map(([to, label]) => (
            <button
              key={to}
              type="button"
              aria-disabled={action.busy}
              aria-describedby={`round-${round.id}`}
              onClick={() => !action.busy && move(to)}
            >
              {label}
            </button>
          ))}
        </p>
      )}
      <Outcome done={action.done} error={action.error} />
    </li>
  );
}

/**
 * Vacation bid rounds (admins): whose turn it is, open / pause / resume / close (POST
 * /bid_rounds/{id}/…), and a new round (POST /bid_rounds, BidRoundForm).
 */
export function BidRounds() {
  const [value, reload] = useLoad(() => call(client.GET('/v1/bid_rounds')), []);
  return (
    <section aria-labelledby="bid-rounds-title">
      <h2 id="bid-rounds-title">Vacation bid rounds</h2>
      <BidRoundForm created={reload} />
      <Loaded value={value} what="the bid rounds" retry={reload}>
        {(rounds) =>
          rounds.length === 0 ? (
            <p>No bid round yet.</p>
          ) : (
            <ul class="cards">
              {rounds.map((round) => (
                <RoundCard key={round.id} round={round} reload={reload} />
              ))}
            </ul>
          )
        }
      </Loaded>
    </section>
  );
}
