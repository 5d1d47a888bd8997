import { useState } from 'preact/hooks';
import { call, client } from '../../api';
import { longDate } from '../../dates';
import { useLoad } from '../../hooks';
import { noteText } from '../board/model';
import { Outcome, useAction } from './action';
import { escapeHtml } from './fields';

type Entry = { id: number; html: string };

/** One note of the day, with Edit (in place) and Delete: each by the note's own id. */
function NoteLine({
  entry,
  busy,
  onEdit,
  onDelete,
}: {
  entry: Entry;
  busy: boolean;
  onEdit: (text: string) => Promise<boolean>;
  onDelete: () => void;
}) {
  const [draft, setDraft] = useState<string | null>(null);
  const text = noteText(entry.html);
  if (draft === null)
    return (
      <li>
        {text}{' '}
        <button type="button" aria-label={`Edit note: ${text}`} onClick={() => setDraft(text)}>
          Edit
        </button>{' '}
        <button type="button" aria-label={`Delete note: ${text}`} aria-disabled={busy} onClick={onDelete}>
          Delete
        </button>
      </li>
    );
  // not a form of its own: the line sits in the panel's note form
  const save = async () => {
    if (await onEdit(draft)) setDraft(null);
  };
  return (
    <li>
      <div class="note-edit">
        <label>
          Edit note
          <textarea
            rows={2}
            maxLength={2000}
            value={draft}
            onInput={(e) => setDraft((e.target as HTMLTextAreaElement).value)}
          />
        </label>
        <button type="button" aria-disabled={busy} onClick={save}>
          Save note
        </button>{' '}
        <button type="button" onClick={() => setDraft(null)}>
          Cancel
        </button>
      </div>
    </li>
  );
}

/**
 * The notes of the day: **Add note** adds one (`POST /day_notes/{date}/entries`), Edit and Delete
 * change or remove one by its id, so two admins at work on one day never overwrite each other.
 */
export function NoteForm({ date, onChanged }: { date: string; onChanged: () => void }) {
  const path = { params: { path: { date } } };
  const [entries, reload] = useLoad(() => call(client.GET('/v1/day_notes/{date}/entries', path)), [date]);
  const [text, setText] = useState('');
  const action = useAction();
  const changed = (message: string) => {
    reload();
    onChanged();
    return message;
  };
  const submit = (event: Event) => {
    event.preventDefault();
    void action.run(async () => {
      const note = text.trim();
      if (!note) throw new Error('Write the note first.');
      await call(client.POST('/v1/day_notes/{date}/entries', { ...path, body: { html: escapeHtml(note) } }));
      setText('');
      return changed(`Note added to ${longDate(date)}.`);
    });
  };
  const edit = async (id: number, draft: string) => {
    let saved = false;
    await action.run(async () => {
      const note = draft.trim();
      if (!note) throw new Error('Write the note first, or delete it.');
      const params = { path: { date, id } };
      await call(client.PATCH('/v1/day_notes/{date}/entries/{id}', { params, body: { html: escapeHtml(note) } }));
      saved = true;
      return changed(`Note of ${longDate(date)} changed.`);
    });
    return saved;
  };
  const remove = (id: number) =>
    action.run(async () => {
      await call(client.DELETE('/v1/day_notes/{date}/entries/{id}', { params: { path: { date, id } } }));
      return changed(`Note removed from ${longDate(date)}.`);
    });
  const notes = entries.state === 'ready' ? entries.data.filter((entry) => entry.kind === 'note') : [];
  return (
    <form class="form panel-form" onSubmit={submit} aria-labelledby="note-title">
      <h3 id="note-title">Notes of the day</h3>
      {notes.length > 0 && (
        <ul class="day-notes">
          {notes.map((entry) => (
            <NoteLine
              key={entry.id}
              entry={entry}
              busy={action.busy}
              onEdit={(draft) => edit(entry.id, draft)}
              onDelete={() => void remove(entry.id)}
            />
          ))}
        </ul>
      )}
      <label>
        New note
        <textarea
          rows={2}
          maxLength={2000}
          value={text}
          onInput={(e) => setText((e.target as HTMLTextAreaElement).value)}
        />
      </label>
      <button type="submit" aria-disabled={action.busy}>
        Add note
      </button>
      <Outcome done={action.done} error={action.error} />
    </form>
  );
}
