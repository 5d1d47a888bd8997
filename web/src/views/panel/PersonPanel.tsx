import { useEffect } from 'preact/hooks';
import type { Session } from '../../api';
import { span } from '../../dates';
import type { BoardData, PanelTarget } from '../board/model';
import { Outcome, useAction } from './action';
import { NoteForm } from './NoteForm';
import { markSick, preloadSickType } from './sick';
import { TradeForm } from './TradeForm';

/** A person's shift: Mark sick, Move or swap, and the notes of the day. */
export function PersonPanel({
  target,
  data,
  session,
  onChanged,
  onOpen,
}: {
  target: Extract<PanelTarget, { kind: 'person' }>;
  data: BoardData;
  session: Session;
  onChanged: () => void;
  onOpen: (t: PanelTarget) => void;
}) {
  const { shift, assignment, date } = target;
  const action = useAction();
  useEffect(() => void preloadSickType(), []);
  // the shift as the board reads it now: gone from its day (moved, swapped, marked sick) or ended, it offers nothing
  const current = data.schedule.days
    .find((day) => day.date === date)
    ?.assignments.find((a) => a.id === assignment.id)
    ?.shifts.find((s) => s.id === shift.id && s.recurring === shift.recurring && s.user.id === shift.user.id);
  const moved = !current || current.start !== shift.start || current.end !== shift.end;
  const markSickNow = () =>
    action.run(async () => {
      const label = await markSick(shift, session.user.id);
      onChanged();
      onOpen({
        kind: 'seat',
        assignmentId: assignment.id,
        date,
        note: `${shift.user.name} marked sick (${label}); the seat is open.`,
      });
      return `${shift.user.name} marked sick.`;
    });
  return (
    <>
      <p>
        {assignment.name} · {span(shift.start, shift.end)}
      </p>
      <p>
        {shift.work_type.name} · {shift.recurring ? 'rotation' : 'one-off shift'}
        {shift.qualifiers.length > 0 && ` · ${shift.qualifiers.map((q) => q.shortcode ?? q.name).join(', ')}`}
      </p>
      <Outcome done={action.done} error={action.error} />
      {moved ? (
        // not a status of its own: after a move from this panel, the move's result is the one to announce
        <p class="stale">
          This shift has moved or is no longer {shift.user.name}'s since it was opened: choose it again on the board.
        </p>
      ) : (
        <div class="buttons">
          <button type="button" aria-disabled={action.busy} onClick={markSickNow}>
            Mark sick
          </button>
        </div>
      )}
      <TradeForm target={target} data={data} session={session} onChanged={onChanged} />
      <NoteForm date={date} onChanged={onChanged} />
    </>
  );
}
