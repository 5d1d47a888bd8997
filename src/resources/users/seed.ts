import type { DemoSeedContext } from '../../core/seed.js';
import { hashPassword } from '../../core/auth/secrets.js';
import { todayIn } from '../../core/time.js';
import { updateUser } from './repository.js';
import { createUser } from './rules.js';

export const seedOrder = 0;

/** The demo's apparatus, as the assignments seed names them. */
export type DemoUnit = 'Battalion Chief' | 'Engine 1' | 'Engine 2' | 'Ladder 1' | 'Medic 1';
export type DemoPlatoon = 'A' | 'B' | 'C';
/** Qualifier shortcodes (qualifiers seed); PM comes as a paramedic licence (certification `PM`). */
export type DemoQualifier = 'OFF' | 'DO' | 'PM';

export interface DemoMember {
  first: string;
  last: string;
  role: string;
  platoon: DemoPlatoon;
  unit: DemoUnit;
  qualifiers: DemoQualifier[];
  /** signs in to the web app with DEMO_PASSWORD (the others have no password: hashing is slow) */
  signsIn: boolean;
}

const member = (
  first: string,
  last: string,
  role: string,
  platoon: DemoPlatoon,
  unit: DemoUnit,
  qualifiers: DemoQualifier[],
  signsIn = false,
): DemoMember => ({ first, last, role, platoon, unit, qualifiers, signsIn });

/** Thirty names for the members who do not sign in. */
const EXTRA_NAMES: Array<[string, string]> = [
  ['Nina', 'Kaplan'],
  ['Luis', 'Herrera'],
  ['Ben', 'Adeyemi'],
  ['Chloe', 'Martin'],
  ['Frank', 'Dubois'],
  ['Aisha', 'Rahman'],
  ['Kyle', 'Jensen'],
  ['Rosa', 'Delgado'],
  ['Paul', 'Becker'],
  ['Mei', 'Tanaka'],
  ['Andre', 'Wallace'],
  ['Julia', 'Novak'],
  ['Simon', 'Price'],
  ['Tara', 'Quinn'],
  ['Marco', 'Rossi'],
  ['Leah', 'Cohen'],
  ['Isaac', 'Hall'],
  ['Zoe', 'Campbell'],
  ['Noah', 'Fletcher'],
  ['Ivy', 'Chen'],
  ['Gavin', 'Murphy'],
  ['Elena', 'Petrova'],
  ['Caleb', 'Ward'],
  ['Ruth', 'Okafor'],
  ['Adam', 'Keller'],
  ['Sofia', 'Marino'],
  ['Liam', 'Brennan'],
  ['Hana', 'Sato'],
  ['Oscar', 'Lund'],
  ['Vera', 'Holm'],
];

/**
 * The department: three platoons, each staffing the Battalion Chief (1 seat), Engine 1, Engine 2 and
 * Ladder 1 (3 seats: an officer and a driver among them) and Medic 1 (2 seats: a paramedic). Each
 * company carries one more member than its seats, so a Kelly day leaves it at minimum; the
 * Battalion Chief has no relief, so each of their Kelly days is a real vacancy. The first thirteen
 * sign in (the admin first); the order of the others is fixed too (the seeds rely on it).
 */
export const DEMO_ROSTER: DemoMember[] = [
  member('Dana', 'Whitfield', 'Admin', 'A', 'Battalion Chief', ['OFF'], true),
  member('Marcus', 'Reyes', 'Captain', 'A', 'Engine 1', ['OFF'], true),
  member('Alicia', 'Brooks', 'Captain', 'B', 'Engine 1', ['OFF'], true),
  member('Tom', 'Kowalski', 'Captain', 'C', 'Engine 1', ['OFF'], true),
  member('Priya', 'Natarajan', 'Engineer', 'A', 'Engine 1', ['DO'], true),
  member('Sam', "O'Connell", 'Engineer', 'B', 'Engine 1', ['DO'], true),
  member('Lena', 'Fischer', 'Engineer', 'C', 'Engine 1', ['DO'], true),
  member('Jamal', 'Carter', 'Firefighter', 'A', 'Engine 1', ['DO'], true),
  member('Grace', 'Liu', 'Firefighter', 'B', 'Engine 1', ['DO'], true),
  member('Diego', 'Alvarez', 'Firefighter', 'C', 'Engine 1', ['DO'], true),
  member('Hannah', 'Moore', 'Firefighter/Paramedic', 'A', 'Medic 1', ['PM'], true),
  member('Ethan', 'Park', 'Firefighter/Paramedic', 'B', 'Medic 1', ['PM'], true),
  member('Olivia', 'Stone', 'Firefighter/Paramedic', 'C', 'Medic 1', ['PM'], true),
  member('Raymond', 'Ortiz', 'Battalion Chief', 'B', 'Battalion Chief', ['OFF']),
  member('Karen', 'Lindqvist', 'Battalion Chief', 'C', 'Battalion Chief', ['OFF']),
  member('Owen', 'Hughes', 'Lieutenant', 'A', 'Engine 1', ['OFF']),
  member('Maya', 'Singh', 'Lieutenant', 'B', 'Engine 1', ['OFF']),
  member('Victor', 'Nguyen', 'Lieutenant', 'C', 'Engine 1', ['OFF']),
  ...(['A', 'B', 'C'] as const).flatMap((platoon, p) =>
    (['Engine 2', 'Ladder 1'] as const).flatMap((unit, u) => {
      const [captain, engineer, driver, lieutenant] = EXTRA_NAMES.slice((p * 2 + u) * 4, (p * 2 + u) * 4 + 4);
      return [
        member(...captain!, 'Captain', platoon, unit, ['OFF']),
        member(...engineer!, 'Engineer', platoon, unit, ['DO']),
        member(...driver!, 'Firefighter', platoon, unit, ['DO']),
        member(...lieutenant!, 'Lieutenant', platoon, unit, ['OFF']),
      ];
    }),
  ),
  ...(['A', 'B', 'C'] as const).flatMap((platoon, p) => {
    const [paramedic, emt] = EXTRA_NAMES.slice(24 + p * 2, 26 + p * 2);
    return [
      member(...paramedic!, 'Firefighter/Paramedic', platoon, 'Medic 1', ['PM']),
      member(...emt!, 'Firefighter/EMT', platoon, 'Medic 1', []),
    ];
  }),
];

/** Every demo user signs in with this password. */
export const DEMO_PASSWORD = 'demo-password';

const usernameOf = (m: DemoMember) => `${m.first}.${m.last}`.toLowerCase().replace(/[^a-z.]/g, '');

/** The demo users who sign in: usernames and roles (the first is the organization's admin). */
export const DEMO_USERS = DEMO_ROSTER.filter((m) => m.signsIn).map((m) => ({ username: usernameOf(m), role: m.role }));

/** The demo roster as users, in DEMO_ROSTER's order: created by the CLI before any seed runs. */
export async function createDemoUsers(ctx: Pick<DemoSeedContext, 'db' | 'auth'>): Promise<number[]> {
  const ids: number[] = [];
  // one scrypt hash for the shared demo password (each takes ~60 ms of CPU)
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  for (const [index, m] of DEMO_ROSTER.entries()) {
    const username = usernameOf(m);
    ids.push(
      await createUser(ctx.db, ctx.auth, {
        username,
        first_name: m.first,
        last_name: m.last,
        mail: `${username}@demo.crewplan.test`,
        employee_id: `E${String(1001 + index)}`,
        role: m.role,
        phone_numbers: [`55501${String(10 + index).padStart(5, '0')}`],
        date_of_hire: `20${String(8 + (index % 12)).padStart(2, '0')}-0${1 + (index % 9)}-15`,
        // leave accrues from the start of the year: the opening balances carry what came before
        accrual_start_date: `${todayIn(ctx.auth.timezone).year}-01-01`,
      }),
    );
    if (m.signsIn) await updateUser(ctx.db, ctx.auth.orgId, ids[index]!, { password_hash: passwordHash });
  }
  return ids;
}

export async function seedDemo(): Promise<void> {
  // The users are created before the other seeds (see cli/seed.ts); nothing more to add here.
}
