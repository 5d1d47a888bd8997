import { text } from 'node:stream/consumers';
import type { Command } from 'commander';
import { passwordProblems } from '../core/auth/password-rules.js';
import { withTransaction } from '../core/db/transaction.js';
import { findOrganization } from '../resources/organizations/repository.js';
import { changeUser } from '../resources/users/rules.js';
import { findSignInUser } from '../webapp/repository.js';
import { cliAuth, commandGroup, type CliContext } from './context.js';
import { promptPassword } from './users.js';

/** The password: the first line of standard input, or asked twice on a terminal. */
async function readPassword(fromStdin: boolean): Promise<string> {
  if (fromStdin) return (await text(process.stdin)).split(/\r?\n/)[0];
  if (!process.stdin.isTTY)
    throw new Error('the password is asked for on a terminal; give --password-stdin to read it from the input.');
  const first = await promptPassword('New password: ');
  if ((await promptPassword('New password again: ')) !== first) throw new Error('The two passwords differ.');
  return first;
}

/**
 * `user set-password`: an operator sets a user's password (a forgotten one, an account delayed by
 * someone's guessing). As PATCH /v1/users/{id} does, it ends the user's sessions and writes the
 * system log; it also clears the account's sign-in delay (docs/security.md, "Sign-in").
 */
export function registerSetPasswordCommand(program: Command, cli: CliContext): void {
  const users = commandGroup(program, 'users', 'users of an organization');
  users
    .command('set-password')
    .description("set a user's password: ends their sessions and clears their sign-in delays")
    .requiredOption('--org <id>', 'organization id')
    .requiredOption('--username <username>', 'the user who signs in with it')
    .option('--password-stdin', 'read the password from the first line of standard input (else asked twice)')
    .option('--json', 'print JSON')
    .action(async (options: { org: string; username: string; passwordStdin?: boolean; json?: boolean }) => {
      const organizationId = cli.orgIdFrom(options.org);
      const password = await readPassword(!!options.passwordStdin);
      const problems = await passwordProblems(password);
      if (problems.length > 0) throw new Error(problems.join(' '));
      await cli.withDatabase(async ({ db }) => {
        const organization = await findOrganization(db, organizationId);
        if (!organization) throw new Error(`organization ${organizationId} does not exist`);
        const user = await findSignInUser(db, organizationId, options.username);
        if (!user) throw new Error(`organization ${organizationId} has no user named "${options.username}".`);
        const auth = cliAuth(organization);
        // as PATCH /v1/users/{id}: ends the sessions and clears the sign-in delays in the same transaction
        await withTransaction(db, (trx) => changeUser(trx, auth, user.id, { password }));
        cli.print(
          { organization_id: organizationId, user_id: user.id, username: user.username },
          !!options.json,
          `password of ${user.username} (user ${user.id}) set: their sessions are ended and sign-in delays cleared`,
        );
      });
    });
}
