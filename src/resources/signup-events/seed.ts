import type { DemoSeedContext } from '../../cli/seed.js';
import type { Db } from '../../core/db/transaction.js';
import { ApiError } from '../../core/errors.js';
import { formatLocalDateTime, todayIn, type Temporal } from '../../core/time.js';
import { expandWork } from '../../scheduling/index.js';
import { recordResponse, startCallback } from '../callbacks/rules.js';
import { createList } from '../lists/rules.js';
import { actOnTrade, createTrade } from '../trades/rules.js';
import { MEMBERSHIPS, replaceMemberships } from '../user-memberships/rules.js';
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
  const workType = await db.selectFrom('work_type').select('id').where('organization_id', '=', auth.orgId).orderBy('position').executeTakeFirstOrThrow();
  const events = [
    { title: 'Station open house', day: today.add({ days: 10 }), from: 10, to: 15, needed: 4, description: '<p>Tours, engine demos and smoke-alarm sign-ups.</p>' },
    { title: 'CPR class instructors', day: today.add({ days: 17 }), from: 18, to: 21, needed: 2, description: '<p>Two instructors for the community CPR class.</p>' },
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

async function firstListWithMembers(db: Db, orgId: number) {
  return db
    .selectFrom('callback_list')
    .innerJoin('user_callback_list', (join) =>
      join.onRef('user_callback_list.list_id', '=', 'callback_list.id').onRef('user_callback_list.organization_id', '=', 'callback_list.organization_id'),
    )
    .select('callback_list.id')
    .where('callback_list.organization_id', '=', orgId)
    .where('callback_list.deleted_at', 'is', null)
    .orderBy('callback_list.position')
    .orderBy('callback_list.id')
    .executeTakeFirst();
}

/** The first list with members, or a new overtime list holding the crew when there is none. */
async function overtimeList(ctx: DemoSeedContext): Promise<number> {
  const { db, auth, adminId, userIds } = ctx;
  const existing = await firstListWithMembers(db, auth.orgId);
  if (existing) return existing.id;
  const listId = await createList(db, auth, { name: 'Firefighter overtime', weekly_limit: 96, max_consecutive_hours: 48 });
  for (const userId of userIds.filter((id) => id !== adminId)) await replaceMemberships(db, auth, MEMBERSHIPS.titles, userId, [listId]);
  return listId;
}

/** A callback on an overtime list: the first candidate denies, the next accepts and fills it. */
async function seedCallback(ctx: DemoSeedContext, today: Temporal.PlainDate): Promise<number> {
  const { db, auth, adminId } = ctx;
  const listId = await overtimeList(ctx);
  const day = today.add({ days: 5 });
  const started = await startCallback(db, auth, {
    list_id: listId,
    initiated_by: adminId,
    start: at(day, 8),
    end: at(day, 20),
    positions_to_fill: 1,
    deadline: at(today.add({ days: 4 }), 12),
  });
  const [first, second] = started.candidates;
  if (!first) return 1;
  if (second) await recordResponse(db, auth, started.id, { user_id: first.user_id, status: 'denied', contact_method: 'Text (SMS)' });
  const taker = second ?? first;
  await recordResponse(db, auth, started.id, { user_id: taker.user_id, status: 'accepted', contact_method: 'Mobile App' });
  return 1;
}

/** A filled trade: the first scheduled piece of work next week taken over by an eligible crew member. */
async function seedTrade(ctx: DemoSeedContext, today: Temporal.PlainDate): Promise<number> {
  const { db, auth, adminId, userIds } = ctx;
  const work = await expandWork(db, auth.orgId, { start: at(today.add({ days: 7 }), 0), end: at(today.add({ days: 14 }), 0), userIds });
  for (const item of work.slice(0, 10)) {
    for (const takerId of userIds.filter((id) => id !== item.user_id && id !== adminId)) {
      const trade = await optional(() =>
        createTrade(db, auth, { requesting_user: item.user_id, start: item.start, end: item.end, approving_user_id: adminId, accepting_user_id: takerId }),
      );
      if (!trade) continue;
      await actOnTrade(db, auth, trade.id, { action: 'approve', admin_id: adminId });
      return 1;
    }
  }
  return 0;
}

/** Demo workflows: two signup events with sign-ups, a filled callback, a filled trade. */
export async function seedDemo(ctx: DemoSeedContext): Promise<Record<string, number>> {
  const today = todayIn(ctx.auth.timezone);
  return {
    signup_event_users: await seedSignupEvents(ctx, today),
    callbacks: await seedCallback(ctx, today),
    trades: await seedTrade(ctx, today),
  };
}
