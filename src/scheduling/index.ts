/**
 * The scheduling engine's public surface (docs/schedule.md): resources import who-works-when from
 * here, never from each other.
 */
export { chargedHours, commitmentsOf, paidFacts, scheduleFacts, segmentsOfEntries, workedOrder } from './engine.js';
export type { Commitments, EntrySegment, ScheduleFacts, TimeOffCover } from './engine.js';
export { approvedTimeOffs, closeMinute, type ApprovedTimeOff } from './time-off.js';
export { breakWithin, expandSchedule, expandWork, LOOKBACK_DAYS, timezoneOf } from './work.js';
export type { KellyDay, WorkItem, WorkRange } from './work.js';
export type { Segment } from './segments.js';
export type { WorkedPiece } from './worked.js';
export {
  holds,
  staffingOf,
  type Qualification,
  type Qualifications,
  type QualifierNeed,
  type Staffing,
} from './staffing.js';
export { loadQualifications, qualificationColumns, qualificationOf } from './qualifications.js';
export { adjacentPeriods, periodOf, type Period } from './period.js';
export { assignmentsForSchedule, type ScheduleAssignments } from './assignments.js';
export {
  approvalImpact,
  occurrenceStaffing,
  vacanciesOf,
  type OccurrenceStaffing,
  type StaffingChange,
} from './vacancies.js';
export { callbackBlocks, MAX_CALLBACK_EXCLUSION_HOURS } from './callback-blocks.js';
export { overtimeOf, workPeriodsOverlapping, type OvertimeRow, type WorkPeriodSetting } from './overtime.js';
export {
  availabilityOf,
  countsAsWork,
  limitPeriods,
  limitReason,
  refusalMessage,
  seriesClash,
  type Availability,
  type HourLimits,
  type Reason,
} from './availability.js';
