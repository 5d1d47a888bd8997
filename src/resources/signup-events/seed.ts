import { orgColumns } from '../../core/db/org-rows.js';
import type { DemoSeedContext } from '../../core/seed.js';
import { ApiError } from '../../core/errors.js';
import { formatLocalDateTime, Temporal, todayIn } from '../../core/time.js';
import { expandWork, vacanciesOf } from '../../scheduling/index.js';
import { DEMO_ROSTER, type DemoUnit } from '../users/seed.js';
import { recordResponse, startCallback } from '../callbacks/rules.js';
import { actOnTrade, createTrade } from '../trades/rules.js';
import { createSignupEvent, signUpUser } from './rules.js';

export const seedOrder = 50;

const at = (date: Temporal.PlainDate, hour: number) => formatLocalDateTime(date.toPlainDateTime({ hour }));

/** Runs one demo step; a step the demo data cannot support (a readable 422) is left out. */
async function optional<T>(step: () => Promise<T>): Promise<T | undefined> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof ApiError && error.statusCode === 422) return undefined;
    throw error;
  }
}

async function seedSignupEvents(ctx: DemoSeedContext, today: Temporal.PlainDate): Promise<number> {
  const { db, auth, adminId, userIds } = ctx;
  const workType = await orgColumns(db, 'work_type', auth.orgId, ['id']).orderBy('position').executeTakeFirstOrThrow();
  const events = [
    {
      title: 'Station open house',
      day: today.add({ days: 10 }),
      from: 10,
      to: 15,
      needed: 4,
      description: '<p>Tours, engine demos and smoke-alarm sign-ups.</p>',
    },
    {
      title: 'CPR class instructors',
      day: today.add({ days: 17 }),
      from: 18,
      to: 21,
      needed: 2,
      description: '<p>Two instructors for the community CPR class.</p>',
    },
  ];
  const crew = userIds.filter((id) => id !== adminId);
  let signups = 0;
  for (const [index, event] of events.entries()) {
    const id = await createSignupEvent(db, auth, {
      admin_id: adminId,
      title: event.title,
      start: at(event.day, event.from),
      end: at(event.day, event.to),
      employees_needed: event.needed,
      work_type_id: workType.id,
      description: event.description,
    });
    for (const userId of crew.slice(index * 3, index * 3 + 2)) {
      await signUpUser(db, auth, id, userId);
      signups += 1;
    }
  }
  return signups;
}

/**
 * Callbacks for the Battalion Chief's vacancies of the coming week (Kelly days, as the engine names
 * them) on the Officer list: the first filled (the first candidate declines, the next accepts), the
 * second still open with its first candidate declined; any later one is left without a callback.
 */
async function seedCallbacks(ctx: DemoSeedContext, today: Temporal.PlainDate): Promise<number> {
  const { db, auth, adminId } = ctx;
  const units = ctx.shared.units as Record<DemoUnit, number> | undefined;
  const listIds = (ctx.shared.listIds as number[] | undefined) ?? [];
  const listId = listIds[2];
  if (!units || listId === undefined) return 0;
  const span = { start: at(today.add({ days: 1 }), 0), end: at(today.add({ days: 8 }), 0) };
  const vacancies = await vacanciesOf(db, auth.orgId, span, auth.timezone, [units['Battalion Chief']]);
  let callbacks = 0;
  for (const [index, vacancy] of vacancies.slice(0, 2).entries()) {
    const started = await startCallback(db, auth, {
      list_id: listId,
      assignment_id: units['Battalion Chief'],
      initiated_by: adminId,
      start: vacancy.start,
      end: vacancy.end,
      positions_to_fill: 1,
      deadline: at(Temporal.PlainDate.from(vacancy.date).subtract({ days: 1 }), 12),
      notes: 'Acting Battalion Chief for a Kelly day',
    });
    callbacks += 1;
    const [first, second] = started.candidates;
    if (first && second)
      await recordResponse(db, auth, started.id, {
        user_id: first.user_id,
        status: 'denied',
        contact_method: 'Text (SMS)',
      });
    if (index === 0 && (second ?? first))
      await recordResponse(db, auth, started.id, {
        user_id: (second ?? first)!.user_id,
        status: 'accepted',
        contact_method: 'Mobile App',
      });
  }
  return callbacks;
}

/** A filled trade: the first scheduled piece of work next week taken over by an eligible member of the same rank. */
async function seedTrade(ctx: DemoSeedContext, today: Temporal.PlainDate): Promise<number> {
  const { db, auth, adminId, userIds } = ctx;
  const work = await expandWork(db, auth.orgId, {
    start: at(today.add({ days: 7 }), 0),
    end: at(today.add({ days: 14 }), 0),
    userIds,
  });
  for (const item of work.slice(0, 10)) {
    const role = DEMO_ROSTER[userIds.indexOf(item.user_id)]?.role;
    const sameRole = (id: number) => DEMO_ROSTER[userIds.indexOf(id)]?.role === role;
    for (const takerId of userIds.filter((id) => id !== item.user_id && id !== adminId && sameRole(id))) {
      const trade = await optional(() =>
        createTrade(db, auth, {
          requesting_user: item.user_id,
          start: item.start,
          end: item.end,
          approving_user_id: adminId,
          accepting_user_id: takerId,
        }),
      );
      if (!trade) continue;
      await actOnTrade(db, auth, trade.id, { action: 'approve', admin_id: adminId });
      return 1;
    }
  }
  return 0;
}

/** Demo workflows: two signup events with sign-ups, a filled and an open callback, a filled trade. */
export async function seedDemo(ctx: DemoSeedContext): Promise<Record<string, number>> {
  const today = todayIn(ctx.auth.timezone);
  return {
    signup_event_users: await seedSignupEvents(ctx, today),
    callbacks: await seedCallbacks(ctx, today),
    trades: await seedTrade(ctx, today),
  };
}
