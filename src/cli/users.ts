import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import { Value } from '@sinclair/typebox/value';
import type { AuthContext } from '../core/auth/context.js';
import { isAdminRole } from '../core/auth/sessions.js';
import type { Db } from '../core/db/transaction.js';
import { createUser } from '../resources/users/rules.js';
import { CreateUserBody } from '../resources/users/schemas.js';

/** What the CLI takes to make a user who can sign in to the web app. */
export interface CliUser {
  username: string;
  password: string;
  role: string;
  firstName?: string;
  lastName?: string;
}

/** The CLI options that set each field, for messages. */
export type CliUserOptions = Record<'username' | 'password' | 'role' | 'first_name' | 'last_name', string>;

const USER_OPTIONS: CliUserOptions = {
  username: '--username',
  password: '--password',
  role: '--role',
  first_name: '--first-name',
  last_name: '--last-name',
};

const RULES: Record<keyof CliUserOptions, string> = {
  username: 'must be 1 to 255 characters, not only spaces',
  password: 'must be 12 to 200 characters',
  role: 'must be at most 255 characters',
  first_name: 'must be 1 to 255 characters',
  last_name: 'must be 1 to 255 characters',
};

/** The user's fields as PUT /v1/users takes them; names default to the username and the role. */
function userBody(user: CliUser) {
  return {
    username: user.username,
    password: user.password,
    role: user.role,
    first_name: user.firstName ?? user.username,
    last_name: user.lastName ?? user.role,
  };
}

/**
 * Checks the CLI's user fields against the API's own schema for them (PUT /v1/users) before
 * anything is written. Throws one message naming every failing option.
 */
export function checkCliUser(user: CliUser, options: Partial<CliUserOptions> = {}): void {
  const names = { ...USER_OPTIONS, ...options };
  const body = userBody(user);
  const failures = (Object.keys(RULES) as Array<keyof CliUserOptions>)
    .filter(
      (field) =>
        !Value.Check(CreateUserBody.properties[field], body[field]) ||
        (field === 'username' && body.username.trim() === ''),
    )
    .map((field) => `${names[field]} ${RULES[field]}`);
  if (failures.length > 0) throw new Error(`${failures.join('; ')}.`);
}

/** Creates the user (in the caller's transaction) without an e-mail address; returns its id. */
export async function createCliUser(trx: Db, auth: AuthContext, user: CliUser): Promise<number> {
  return createUser(trx, auth, { ...userBody(user), mail: [] });
}

/** The user's line in the CLI's text output. */
export function describeUser(user: { username: string; role: string }): string {
  return (
    `${user.username.padEnd(20)} ` +
    `${user.role}${isAdminRole(user.role) ? ' (admin: acts on the whole organization)' : ''}`
  );
}

/** Reads a password from the terminal without echoing it. */
export function promptPassword(question: string): Promise<string> {
  let muted = false;
  const output = new Writable({
    write(chunk, _encoding, done) {
      if (!muted) process.stdout.write(chunk);
      done();
    },
  });
  const rl = createInterface({ input: process.stdin, output, terminal: true });
  return new Promise((resolve) => {
    rl.question(question, (answer) => {
      rl.close();
      process.stdout.write('\n');
      resolve(answer);
    });
    muted = true;
  });
}

/** The web app's address for sign-in lines. */
export function signInUrl(config: { publicBaseUrl: string | undefined; port: number }): string {
  return `${config.publicBaseUrl ?? `http://localhost:${config.port}`}/app`;
}
