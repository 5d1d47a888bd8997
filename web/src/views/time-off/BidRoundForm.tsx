import { useEffect, useRef, useState } from 'preact/hooks';
import { call, client } from '../../api';
import { Loaded } from '../../components';
import { addDays, today } from '../../dates';
import { fieldErrors, invalidAttrs } from '../../field-errors';
import { useLoad } from '../../hooks';
import { Outcome, useAction } from '../panel/action';

/** The fields of POST /v1/bid_rounds the form sends (docs/contract-rules.md, "Vacation bidding"). */
const FIELDS = [
  'name',
  'year',
  'time_off_type_ids',
  'group_id',
  'turn_minutes',
  'turns_per_member',
  'opens_at',
] as const;
type Field = (typeof FIELDS)[number];

/** A number field's value as typed: empty is left out, anything else is the API's to judge. */
const numberOf = (value: FormDataEntryValue | null) => (value === null || value === '' ? undefined : Number(value));

/**
 * A new vacation bid round (admins, POST /v1/bid_rounds): its name and year, the time off types a pick
 * may take, the group whose members bid (in seniority order), each turn's window, the turns per
 * member and when the first turn begins. The round is made in draft; the list's Open starts it. The
 * browser does not check the fields: the API does, and each message it returns shows under the
 * field it names (field-errors.ts), the first such field focused.
 */
export function BidRoundForm({ created }: { created: () => void }) {
  const [value, reload] = useLoad(
    () => Promise.all([call(client.GET('/v1/time_off_types')), call(client.GET('/v1/groups'))]),
    [],
  );
  const action = useAction();
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    (form.current?.querySelector('[aria-invalid="true"]') as HTMLElement | null)?.focus();
  }, [errors]);
  const year = Number(today().slice(0, 4)) + 1;
  const error = (field: Field) =>
    errors[field] && (
      <p class="field-error" id={`bid-round-${field}-error`}>
        {errors[field]}
      </p>
    );
  const invalid = (field: Field) => invalidAttrs(errors[field], `bid-round-${field}-error`);
  const submit = (event: Event) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget as HTMLFormElement);
    const group = numberOf(data.get('group_id'));
    const body = {
      name: String(data.get('name') ?? ''),
      year: numberOf(data.get('year')) as number,
      time_off_type_ids: data.getAll('time_off_type_ids').map(Number),
      ...(group === undefined ? {} : { group_id: group }),
      turn_minutes: numberOf(data.get('turn_minutes')) as number,
      turns_per_member: numberOf(data.get('turns_per_member')),
      opens_at: `${String(data.get('opens_at') ?? '').replace('T', ' ')}:00`,
    };
    void action.run(async () => {
      try {
        await call(client.POST('/v1/bid_rounds', { body }));
        setErrors({});
        form.current?.reset();
        created();
        return `${body.name} is made, in draft: open it when the members may pick.`;
      } catch (failure) {
        const shared = fieldErrors(failure, FIELDS);
        setErrors(shared.fields);
        throw new Error(shared.rest.join(' ') || 'The bid round was not made: see the fields marked.');
      }
    });
  };
  return (
    <details class="bid-round-new">
      <summary>New bid round</summary>
      <Loaded value={value} what="the time off types and groups" retry={reload}>
        {([types, groups]) => (
          <form ref={form} class="form" noValidate onSubmit={submit} aria-labelledby="bid-round-new-title">
            <h3 id="bid-round-new-title">New bid round</h3>
            <label>
              Name
              <input name="name" defaultValue={`Vacation ${year}`} {...invalid('name')} />
            </label>
            {error('name')}
            <label>
              Year <small>the picks fall in this calendar year</small>
              <input name="year" type="number" inputMode="numeric" defaultValue={String(year)} {...invalid('year')} />
            </label>
            {error('year')}
            <fieldset class="choices">
              <legend>Time off types a pick may take</legend>
              {types.map((type) => (
                <label key={type.id} class="check">
                  <input
                    type="checkbox"
                    name="time_off_type_ids"
                    value={type.id}
                    defaultChecked={/vacation/i.test(type.label)}
                    {...invalid('time_off_type_ids')}
                  />{' '}
                  {type.label}
                </label>
              ))}
            </fieldset>
            {error('time_off_type_ids')}
            <label>
              Members: the group <small>its members bid, most senior first</small>
              <select name="group_id" {...invalid('group_id')}>
                <option value="">Choose a group</option>
                {groups.map((group) => (
                  <option key={group.id} value={group.id}>
                    {group.label}
                  </option>
                ))}
              </select>
            </label>
            {error('group_id')}
            <label>
              Minutes a turn
              <input
                name="turn_minutes"
                type="number"
                inputMode="numeric"
                defaultValue="1440"
                {...invalid('turn_minutes')}
              />
            </label>
            {error('turn_minutes')}
            <label>
              Turns per member <small>2: the order is gone through twice</small>
              <input
                name="turns_per_member"
                type="number"
                inputMode="numeric"
                defaultValue="1"
                {...invalid('turns_per_member')}
              />
            </label>
            {error('turns_per_member')}
            <label>
              First turn begins
              <input
                name="opens_at"
                type="datetime-local"
                defaultValue={`${addDays(today(), 7)}T08:00`}
                {...invalid('opens_at')}
              />
            </label>
            {error('opens_at')}
            <button type="submit" class="primary" aria-disabled={action.busy}>
              Make the bid round
            </button>
            <Outcome done={action.done} error={action.error} />
          </form>
        )}
      </Loaded>
    </details>
  );
}
