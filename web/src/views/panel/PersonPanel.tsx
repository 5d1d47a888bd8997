import { useMemo } from 'preact/hooks';
import { call, client, type Session } from '../../api';
import { span } from '../../dates';
import type { BoardData, PanelTarget } from '../board/model';
import { Outcome, useAction } from './action';
import { NoteForm } from './NoteForm';
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
  // the type "Mark sick" records is the organization's choice (`sick_leave` on one type), not a name;
  // asked for as the panel opens, so the button sends one request
  const sickType = useMemo(() => {
    const found = call(client.GET('/v1/time_off_types')).then((types) => types.find((t) => t.sick_leave));
    found.catch(() => undefined);
    return found;
  }, []);
  const markSick = () =>
    action.run(async () => {
      const sick = await sickType;
      if (!sick) throw new Error('No time off type is set as the sick leave type (sick_leave): set one first.');
      await call(
        client.POST('/v1/time_offs', {
          body: {
            user_id: shift.user.id,
            admin_ids: [session.user.id],
            start_date: shift.start,
            end_date: shift.end,
            time_off_type_id: Number(sick.id),
            status: 1,
          },
        }),
      );
      onChanged();
      onOpen({
        kind: 'seat',
        assignmentId: assignment.id,
        date,
        note: `${shift.user.name} marked sick (${sick.label}); the seat is open.`,
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
      <div class="buttons">
        <button type="button" aria-disabled={action.busy} onClick={markSick}>
          Mark sick
        </button>
      </div>
      <TradeForm target={target} data={data} session={session} onChanged={onChanged} />
      <NoteForm date={date} onChanged={onChanged} />
    </>
  );
}
