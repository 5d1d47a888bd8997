import { getVtimezoneComponent } from '@touch4it/ical-timezones';
import ical, { ICalCalendarMethod } from 'ical-generator';
import { localToZoned } from '../../../core/time.js';

/** The accepted callback's hours as an iCalendar event (the confirmation e-mail's attachment). */
export function callbackEvent(event: {
  callbackId: number;
  userId: number;
  start: string;
  end: string;
  timezone: string;
  summary: string;
  description: string;
  location?: string | null;
}): { filename: string; content: string } {
  const calendar = ical({
    prodId: { company: 'crewplan', product: 'callbacks', language: 'EN' },
    method: ICalCalendarMethod.PUBLISH,
    timezone: { name: null, generator: getVtimezoneComponent },
  });
  calendar.createEvent({
    id: `callback-${event.callbackId}-user-${event.userId}@crewplan`,
    start: localToZoned(event.start, event.timezone),
    end: localToZoned(event.end, event.timezone),
    timezone: event.timezone,
    summary: event.summary,
    description: event.description,
    location: event.location ?? null,
    categories: [{ name: 'Callback' }],
  });
  return { filename: `callback-${event.callbackId}.ics`, content: calendar.toString() };
}
