import type { Command } from 'commander';
import { ApiError } from '../core/errors.js';
import { raiseOrganizationRevision } from '../core/response-cache.js';
import { findOrganization } from '../resources/organizations/repository.js';
import type { RosterResult } from '../resources/user-roster/roster.js';
import { readInputBytes } from './org-transfer.js';
import { cliAuth, commandGroup, type CliContext } from './context.js';

function summary(result: RosterResult): string {
  const lines = result.rows
    .filter((row) => row.action !== 'unchanged')
    .map(
      (row) =>
        `line ${row.line}: ${row.action} ${row.username}${row.user_id ? ` (user ${row.user_id})` : ''}: ` +
        `${row.changes.join(', ')}`,
    );
  const verb = result.dry_run ? 'would create' : 'created';
  lines.push(
    `${verb} ${result.created}, ${result.dry_run ? 'would update' : 'updated'} ${result.updated}, unchanged ` +
      `${result.unchanged}${result.dry_run ? ' (dry run: nothing written)' : ''}`,
  );
  return lines.join('\n');
}

/** `users import`: the roster CSV of POST /v1/users/import from the command line (docs/extensions.md, "Roster CSV"). */
export function registerUsersImportCommand(program: Command, cli: CliContext): void {
  const users = commandGroup(program, 'users', 'users of an organization');
  users
    .command('import')
    .description(
      'create and update users from a roster CSV (employee_id or username, qualifiers and groups by name); ' +
        'nothing is written if any row is bad',
    )
    .requiredOption('--org <id>', 'organization id')
    .argument('[file]', 'the roster CSV; stdin when left out or "-"')
    .option('--dry-run', 'report what would change, write nothing')
    .option('--json', 'print JSON')
    .action(async (file: string | undefined, options: { org: string; dryRun?: boolean; json?: boolean }) => {
      const { importRoster, rosterText } = await import('../resources/user-roster/roster.js');
      let text: string;
      try {
        text = rosterText(await readInputBytes(file), undefined);
      } catch (error) {
        throw new Error(`nothing written:\n${(error as ApiError).errorMessage ?? (error as Error).message}`);
      }
      await cli.withDatabase(async ({ db }) => {
        const organization = await findOrganization(db, cli.orgIdFrom(options.org));
        if (!organization) throw new Error(`organization ${options.org} does not exist`);
        const auth = cliAuth(organization);
        try {
          const result = await importRoster(db, auth, text, { dryRun: !!options.dryRun });
          // running servers drop what they computed from the users before
          if (!result.dry_run) await raiseOrganizationRevision(db, organization.id);
          cli.print(result, !!options.json, summary(result));
        } catch (error) {
          if (error instanceof ApiError)
            throw new Error(`nothing written:\n${([] as string[]).concat(error.errorMessage).join('\n')}`);
          throw error;
        }
      });
    });
}
