import type { Command } from 'commander';
import { verifyLogChain } from '../core/log-chain.js';
import { checkOrganizationSeals } from '../resources/callback-decisions/seals.js';
import { findOrganization } from '../resources/organizations/repository.js';
import type { CliContext } from './context.js';

/**
 * `log verify`: recomputes an organization's system-log hash chain (src/core/log-chain.ts), and checks the
 * callback decision records against the seals the log carries (src/resources/callback-decisions/seals.ts).
 */
export function registerLogCommands(program: Command, cli: CliContext): void {
  const log = program.command('log').description('the system log');
  log
    .command('verify')
    .description(
      "check that no entry of an organization's system log was edited, deleted or reordered, " +
        'and no callback decision record differs from its seal',
    )
    .requiredOption('--org <id>', 'organization id')
    .option('--json', 'print JSON')
    .action(async (options: { org: string; json?: boolean }) => {
      await cli.withDatabase(async ({ db }) => {
        const organizationId = cli.orgIdFrom(options.org);
        if (!(await findOrganization(db, organizationId)))
          throw new Error(`organization ${organizationId} does not exist`);
        const verdict = await verifyLogChain(db, organizationId);
        const records = await checkOrganizationSeals(db, organizationId);
        const where = verdict.ok
          ? ''
          : verdict.entryId === null
            ? `after entry ${verdict.entries}`
            : `at entry ${verdict.entries + 1} (log id ${verdict.entryId}, ${verdict.createdAt} UTC)`;
        const recordsText = records.differences.length
          ? [
              `${records.differences.length} difference(s) in the decision records of ${records.checked} callback(s):`,
              ...records.differences.map((d) => `- callback #${d.callback_id}: ${d.difference}`),
            ].join('\n')
          : `the decision records of ${records.checked} callback(s) match their seals`;
        cli.print(
          { organization_id: organizationId, ...verdict, records },
          !!options.json,
          (verdict.ok
            ? `the log of organization ${organizationId} is intact: ${verdict.entries} entries, head ${verdict.head}`
            : `the log of organization ${organizationId} is broken ${where}: ${verdict.reason}`) + `\n${recordsText}`,
        );
        if (!verdict.ok || records.differences.length) process.exitCode = 1;
      });
    });
}
