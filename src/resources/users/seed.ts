import type { DemoSeedContext } from '../../cli/seed.js';
import { createUser } from './rules.js';

export const seedOrder = 0;

const CREW = [
  ['Dana', 'Whitfield', 'Battalion Chief'],
  ['Marcus', 'Reyes', 'Captain'],
  ['Alicia', 'Brooks', 'Captain'],
  ['Tom', 'Kowalski', 'Captain'],
  ['Priya', 'Natarajan', 'Engineer'],
  ['Sam', "O'Connell", 'Engineer'],
  ['Lena', 'Fischer', 'Engineer'],
  ['Jamal', 'Carter', 'Firefighter'],
  ['Grace', 'Liu', 'Firefighter'],
  ['Diego', 'Alvarez', 'Firefighter'],
  ['Hannah', 'Moore', 'Firefighter/Paramedic'],
  ['Ethan', 'Park', 'Firefighter/Paramedic'],
  ['Olivia', 'Stone', 'Firefighter/Paramedic'],
] as const;

/** Every demo user signs in with this password. */
export const DEMO_PASSWORD = 'demo-password';

/** The demo crew's usernames and roles (the first is the organization's admin). */
export const DEMO_USERS = CREW.map(([first, last, role], index) => ({
  username: `${first}.${last}`.toLowerCase().replace(/[^a-z.]/g, ''),
  role: index === 0 ? 'Admin' : role,
}));

/** The demo crew: users of the seed context are created by the CLI before any seed runs. */
export async function createDemoUsers(ctx: Pick<DemoSeedContext, 'db' | 'auth'>): Promise<number[]> {
  const ids: number[] = [];
  for (const [index, [first, last]] of CREW.entries()) {
    const { username, role } = DEMO_USERS[index];
    ids.push(
      await createUser(ctx.db, ctx.auth, {
        username,
        first_name: first,
        last_name: last,
        mail: `${username}@demo.crewplan.test`,
        password: DEMO_PASSWORD,
        employee_id: `E${String(1001 + index)}`,
        role,
        phone_numbers: [`55501${String(10 + index).padStart(5, '0')}`],
        date_of_hire: `20${String(8 + (index % 12)).padStart(2, '0')}-0${1 + (index % 9)}-15`,
      }),
    );
  }
  return ids;
}

export async function seedDemo(): Promise<void> {
  // The users are created before the other seeds (see cli/main.ts); nothing more to add here.
}
