import type { AuthContext } from '../../core/auth/context.js';
import { writeLog } from '../../core/audit.js';
import type { Db } from '../../core/db/transaction.js';
import { invalidParams } from '../../core/errors.js';
import { updateOrganizationSettings } from '../../core/org-settings.js';
import { fatigueSettingOf, type Reason } from '../../scheduling/index.js';
import type { ChangeFatigueRulesBody, FatigueRulesResponse } from './schemas.js';
import './table.js';

/** The organization's fatigue rules (docs/contract-rules.md#fatigue-rules), with the work period they count over. */
export async function findFatigueRules(db: Db, orgId: number): Promise<FatigueRulesResponse> {
  const { rules, workPeriod } = await fatigueSettingOf(db, orgId);
  return { ...rules, period: { days: workPeriod.days, start: workPeriod.start } };
}

/**
 * Writes the fields sent, then checks the rules as they now stand (one 422, the write rolled back
 * with the transaction): the rest rule's three fields are set together or all null, and the hours
 * worked fit within the window.
 */
export async function updateFatigueRules(db: Db, orgId: number, values: ChangeFatigueRulesBody): Promise<void> {
  await updateOrganizationSettings(db, orgId, {
    fatigue_max_consecutive_hours: values.max_consecutive_hours,
    fatigue_stretch_break_hours: values.stretch_break_hours,
    fatigue_rest_hours: values.rest_hours,
    fatigue_rest_after_hours: values.rest_after_hours,
    fatigue_rest_within_hours: values.rest_within_hours,
    fatigue_max_period_hours: values.max_period_hours,
  });
  const rules = await findFatigueRules(db, orgId);
  const rest = [rules.rest_hours, rules.rest_after_hours, rules.rest_within_hours];
  if (rest.some((v) => v === null) && rest.some((v) => v !== null))
    throw invalidParams(
      'The rest rule needs rest hours, rest after hours and rest within hours together (or all three null).',
    );
  if (rules.rest_after_hours !== null && rules.rest_within_hours! < rules.rest_after_hours)
    throw invalidParams('The rest within hours may not be fewer than the rest after hours.');
}

/**
 * The fatigue reasons among `reasons`: none, or the admin's `override` goes over them (logged as
 * `fatigue.overridden` on the entity); otherwise the 422 of `refusal` with the first rule's words.
 */
export async function overrideFatigue(
  trx: Db,
  auth: AuthContext,
  reasons: Reason[],
  request: {
    override: string | undefined;
    refusal: (reason: Reason) => Error;
    who: string;
    entity: { type: string; id: number };
    actorUserId?: number;
  },
): Promise<void> {
  const fatigue = reasons.filter((reason) => reason.kind === 'fatigue');
  if (fatigue.length === 0) return;
  const override = request.override?.trim();
  if (!override) throw request.refusal(fatigue[0]!);
  if (auth.sessionUser && !auth.sessionUser.isAdmin) throw invalidParams('Only an admin may override a fatigue rule.');
  await writeLog(trx, auth, {
    action: 'fatigue.overridden',
    description: `put ${request.who} to work over the fatigue rules (${fatigue
      .map((r) => r.text)
      .join('; ')}): ${override}`,
    actorUserId: request.actorUserId,
    entityType: request.entity.type,
    entityId: request.entity.id,
    after: { override_reason: override, reasons: fatigue.map((r) => r.text) },
  });
}
