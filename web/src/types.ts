/**
 * The API's response shapes, from the typed client generated from /v1/openapi.json (client/):
 * a change of the API's schemas that breaks a view fails `npm run typecheck`.
 */
import type { ResponseOf } from '../../client/src/index.js';

export type Schedule = ResponseOf<'getSchedule'>;
export type ScheduleDay = Schedule['days'][number];
export type AssignmentDay = ScheduleDay['assignments'][number];
export type Shift = AssignmentDay['shifts'][number];
export type DayTimeOff = ScheduleDay['time_off'][number];
export type DayLabels = ResponseOf<'listDayLabels'>;
export type VisualCycle = ResponseOf<'listVisualCycles'>[number];
export type TimeOffPage = ResponseOf<'listTimeOffs'>;
/** An entry of the organization's listing or of a user's own listing (string ids there). */
export type TimeOffEntry = TimeOffPage['items'][number] | ResponseOf<'listUserTimeOffs'>[number];
export type TimeOffImpact = ResponseOf<'getTimeOffImpact'>;
export type SignupEvent = ResponseOf<'listSignupEvents'>[number];
export type SignupEventUser = ResponseOf<'listSignupEventUsers'>[number];
export type CallbackPage = ResponseOf<'listCallbacks'>;
export type Callback = CallbackPage['data'][number];
export type CallbackUser = ResponseOf<'listCallbackUsers'>[number];
export type VacancyCandidates = ResponseOf<'listVacancyCandidates'>;
type AnyVacancy = ResponseOf<'listVacancies'>[number];
/** An assignment's vacancy (GET /vacancies lists groups short of their minimum too: `group_staffing` shows those). */
export type Vacancy = Extract<AnyVacancy, { assignment: unknown }>;
/** An assignment group's staffing on a day (a station's minimum on duty, docs/contract-rules.md). */
export type GroupStaffing = NonNullable<ScheduleDay['group_staffing']>[number];
export type CallbackOffer = ResponseOf<'listUserCallbackOffers'>[number];
export type TimeOffTypeDetail = ResponseOf<'getTimeOffType'>;
export type CallbackListDetail = ResponseOf<'getList'>;
export type CallbackDecisionRecord = ResponseOf<'listCallbackDecisions'>;
export type UserCallbackDecisions = ResponseOf<'listUserCallbackDecisions'>;
export type TradeOffer = ResponseOf<'listUserTradeOffers'>[number];
export type ForcedList = ResponseOf<'getForcedList'>;
export type BidRound = ResponseOf<'listBidRounds'>[number];
