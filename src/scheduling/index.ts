/**
 * The scheduling engine's public surface (docs/architecture.md, "The scheduling engine"): answers
 * to who works when, what is short and what is paid. Resources import them from here and never
 * recombine the engine's parts. The engine reads its tables in reads.ts only; recurrence.ts and
 * rotation-pattern.ts are its pure rules, which resources also use to check what they store.
 */

// facts: who works when, and the time off that cuts it
export { chargedHours, paidFacts, scheduleFacts, segmentsOfEntries } from './engine.js';
export type { EntrySegment, ScheduleFacts, TimeOffCover } from './engine.js';
export { approvedTimeOffs, closeMinute, type ApprovedTimeOff } from './time-off.js';
export { expandWork, type KellyDay, type WorkItem } from './work.js';
export { type LeaveDates, workSpanOfDates } from './leave-dates.js';
export { timezoneOf } from './reads.js';
export type { Segment } from './segments.js';
export type { WorkedPiece } from './worked.js';
export { TRADE_HOURS_COUNT_FOR, type PaidPiece, type TradeHoursCountFor } from './trade-hours.js';
export { adjacentPeriods, periodOf, type Period } from './period.js';

// staffing: the schedule's days and the occurrences that are short (one computation, staffing.ts)
export {
  assignmentDay,
  keptPeriodDays,
  type AssignmentDay,
  type KeptPeriod,
  type PeriodDays,
  type PeriodRendering,
  type Touched,
} from './period-days.js';
export type { Lookups } from './lookups.js';
export {
  approvalImpact,
  expiryCosts,
  keptOccurrenceStaffing,
  occurrenceStaffing,
  vacanciesOf,
  type Expiring,
  type ExpiryCost,
  type KeptStaffing,
  type OccurrenceStaffing,
  type StaffingChange,
} from './vacancies.js';
export type { Staffing } from './staffing.js';

// availability: may this person work then, with the reasons users see (availability.ts)
export {
  availabilityOf,
  countsAsWork,
  datedHoursFatigue,
  limitPeriods,
  limitReason,
  refusalMessage,
  seriesClash,
  seriesFatigue,
  type Availability,
  type HourLimits,
  type Reason,
} from './availability.js';
export { callbackBlocks, MAX_CALLBACK_EXCLUSION_HOURS } from './callback-blocks.js';
export { holds } from './staffing.js';
export { acceptedCallbacks, lastForced, loadQualifications } from './reads.js';

// charges and overtime
export { overtimeOf, workPeriodsOverlapping, type OvertimeRow, type WorkPeriodSetting } from './overtime.js';

// the contract: limits on who may be off (off-limits.ts) and group minimums (group-staffing.ts)
export {
  offDaysOfEntries,
  offLimitRuleOf,
  offLimitVerdict,
  whoIsOff,
  type OffLimitBreach,
  type OffLimitRule,
  type OffLimitVerdict,
  type OffPerson,
} from './off-limits.js';
export { groupDaysOf, groupShortfalls, groupStaffingOf, type GroupDayStaffing } from './group-staffing.js';
export type { GroupNeed } from './staffing.js';
export { fatigueSettingOf, groupMinimums } from './reads.js';

// what shifts name besides users: the reads GET /schedule's lookups (lookups.ts) share with the shifts resource
export {
  tagsOfShifts,
  workTypesByIds,
  type LabelOfShift,
  type QualifierOfShift,
  type ShiftTags,
  type SubtypeOfType,
} from './reads.js';
