import type { CallbackSettings } from '../../callback-settings/repository.js';
import { CONTACT_METHODS } from '../../callback-settings/schemas.js';
import type { Channel } from './channel.js';

/** The personal channels in the order they are tried: the preferred one, then Mobile App, Text (SMS), Email. */
export function fallbackOrder(channels: Channel[], preferred: string | null): Channel[] {
  const order: string[] = preferred
    ? [preferred, ...CONTACT_METHODS.filter((m) => m !== preferred)]
    : [...CONTACT_METHODS];
  const rank = (channel: Channel) => {
    const index = order.indexOf(channel.method);
    return index < 0 ? order.length : index;
  };
  return channels.filter((c) => c.personal).sort((a, b) => rank(a) - rank(b));
}

/** Whether the local clock time `HH:MM` falls in the person's daily do-not-disturb hours (which may span midnight). */
export function inDoNotDisturb(settings: CallbackSettings, clock: string): boolean {
  const { do_not_disturb_start: start, do_not_disturb_end: end } = settings;
  if (!start || !end) return false;
  return start < end ? clock >= start && clock < end : clock >= start || clock < end;
}
