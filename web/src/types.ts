/** The parts of the API's responses the web app reads (see the API spec). */

export interface UserRef {
  id: number | string;
  name: string;
}
export interface Colored {
  id: number;
  color: string;
  text_color: string;
}
export interface Shift {
  id: number;
  start: string;
  end: string;
  recurring: boolean;
  user: UserRef;
  work_type: Colored & { name: string; work_code: string | null };
  labels: Array<Colored & { label: string }>;
  qualifiers: Array<Colored & { shortcode: string; name: string }>;
}
export interface AssignmentDay {
  id: number;
  date: string;
  name: string;
  start: string;
  end: string;
  minimum_staffing: number;
  qualifiers_needed: Array<Colored & { name: string; shortcode: string; minimum_staffing: number }>;
  is_finalized: boolean;
  shifts: Shift[];
}
export interface DayTimeOff {
  id: number;
  start: string;
  end: string;
  user: UserRef;
  time_off_type: Colored & { name: string; work_code: string | null };
}
export interface ScheduleDay {
  date: string;
  assignments: AssignmentDay[];
  time_off: DayTimeOff[];
}
export interface Schedule {
  start: string;
  end: string;
  days: ScheduleDay[];
}
export interface DayLabels {
  days: Record<string, { color: string; label: string }>;
}
export interface VisualCycle {
  id: number;
  name: string;
  start: string;
  end: string;
  color: string;
  text_color: string;
}
export interface TimeOffEntry {
  id: number | string;
  time_off_type: { id: number | string; name: string; work_code: string | null };
  user: UserRef;
  start: string;
  end: string;
  length?: number;
  status: number | string;
  user_note: string | null;
}
export interface TimeOffPage {
  items: TimeOffEntry[];
  metadata: { links: { next: string | null } };
}
export interface TimeOffType {
  id: number | string;
  label: string;
}
export interface SignupEvent {
  id: number;
  title: string;
  start: string;
  end: string;
  description: string | null;
  employees_needed: number;
  status: string;
}
export interface SignupEventUser {
  id: number;
  user: UserRef;
}
export interface Callback {
  id: number;
  title: { id: number; name: string };
  initiated_by: { id: number; name: string };
  start: string;
  end: string;
  positions_to_fill: number;
  deadline: string | null;
  status: string;
}
export interface CallbackUser {
  id: string;
  position: string;
  status: string;
  contact_method: string | null;
  contact_time: string | null;
  response_time: string | null;
}
export interface UserSummary {
  user_id: number;
  full_name: string;
  role: string | null;
}
