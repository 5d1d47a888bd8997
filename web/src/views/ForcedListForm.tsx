import { useEffect, useRef, useState } from 'preact/hooks';
import { call, client } from '../api';
import { fieldErrors, invalidAttrs } from '../field-errors';
import type { ForcedList } from '../types';
import { Outcome, useAction } from './panel/action';

/** The settings of PUT /v1/groups/{id}/forced_list the form edits (docs/contract-rules.md, "Forced hire"). */
const FIELDS = [
  'enabled',
  'start_within_hours',
  'time_off_buffer_hours',
  'long_tour_hours',
  'long_tour_buffer_hours',
  'initiated_by',
] as const;
type Field = (typeof FIELDS)[number];

const HOURS: Array<[Field, string, string]> = [
  ['start_within_hours', 'Force automatically within (hours)', 'a vacancy starting this soon, its callback unfilled'],
  ['time_off_buffer_hours', 'Time-off buffer (hours)', 'not forced this soon after approved time off ends; 0: none'],
  ['long_tour_hours', 'Long tour (hours)', 'a tour of unbroken work this long or longer …; 0: no tour buffer'],
  ['long_tour_buffer_hours', 'Long-tour buffer (hours)', '… keeps its worker from being forced this long after'],
];

const numberOf = (value: FormDataEntryValue | null) => (value === null || value === '' ? undefined : Number(value));

/**
 * A group's forced-hire settings (admins, PUT /v1/groups/{id}/forced_list): whether it forces by
 * itself and as whom, and its buffers. The PUT replaces the settings whole: the covered assignments
 * and the work type are sent as they are, the last-forced dates are left alone. The API checks the
 * fields; each message shows under the field it names (field-errors.ts). Saved, the order is read
 * again: a buffer changed moves who is next.
 */
export function ForcedListForm({
  list,
  label,
  people,
  saved,
}: {
  list: ForcedList;
  label: string;
  people: Array<{ id: number; name: string }>;
  saved: () => void;
}) {
  const action = useAction();
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    (form.current?.querySelector('[aria-invalid="true"]') as HTMLElement | null)?.focus();
  }, [errors]);
  const prefix = `forced-${list.group_id}`;
  const error = (field: Field) =>
    errors[field] && (
      <p class="field-error" id={`${prefix}-${field}-error`}>
        {errors[field]}
      </p>
    );
  const invalid = (field: Field) => invalidAttrs(errors[field], `${prefix}-${field}-error`);
  const submit = (event: Event) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget as HTMLFormElement);
    const hours = (field: Field) => numberOf(data.get(field)) as number;
    const body = {
      enabled: data.get('enabled') === 'on',
      start_within_hours: hours('start_within_hours'),
      time_off_buffer_hours: hours('time_off_buffer_hours'),
      long_tour_hours: hours('long_tour_hours'),
      long_tour_buffer_hours: hours('long_tour_buffer_hours'),
      initiated_by: numberOf(data.get('initiated_by')) ?? null,
      work_type_id: list.work_type_id,
      assignment_ids: list.assignment_ids,
    };
    void action.run(async () => {
      try {
        await call(client.PUT('/v1/groups/{id}/forced_list', { params: { path: { id: list.group_id } }, body }));
        setErrors({});
        saved();
        return `Saved the forced list of ${label}.`;
      } catch (failure) {
        const shared = fieldErrors(failure, FIELDS);
        setErrors(shared.fields);
        throw new Error(shared.rest.join(' ') || 'The settings were not saved: see the fields marked.');
      }
    });
  };
  return (
    <details class="forced-settings">
      <summary>Forced-hire settings</summary>
      <form ref={form} class="form" noValidate onSubmit={submit} aria-label={`Forced-hire settings of ${label}`}>
        <label class="check">
          <input type="checkbox" name="enabled" defaultChecked={list.enabled} {...invalid('enabled')} /> Force by itself
          when a vacancy is close and its callback ended unfilled
        </label>
        {error('enabled')}
        <label>
          Forced hires are made in the name of
          <select name="initiated_by" {...invalid('initiated_by')}>
            {/* `selected`, not the select's defaultValue: Preact writes that as an attribute a select ignores */}
            <option value="" selected={list.initiated_by === null}>
              Nobody (only by hand)
            </option>
            {people.map((person) => (
              <option key={person.id} value={person.id} selected={person.id === list.initiated_by}>
                {person.name}
              </option>
            ))}
          </select>
        </label>
        {error('initiated_by')}
        {HOURS.map(([field, words, hint]) => [
          <label key={field}>
            {words} <small>{hint}</small>
            <input
              name={field}
              type="number"
              inputMode="numeric"
              defaultValue={String(list[field as keyof ForcedList])}
              {...invalid(field)}
            />
          </label>,
          error(field),
        ])}
        <button type="submit" class="primary" aria-disabled={action.busy}>
          Save the settings of {label}
        </button>
        <Outcome done={action.done} error={action.error} />
      </form>
    </details>
  );
}
