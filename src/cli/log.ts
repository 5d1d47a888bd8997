import type { Command } from 'commander';
import { verifyLogChain } from '../core/log-chain.js';
import { findOrganization } from '../resources/organizations/repository.js';
import type { CliContext } from './context.js';

/** `log verify`: recomputes an organization's system-log hash chain (src/core/log-chain.ts). */
export function registerLogCommands(program: Command, cli: CliContext): void {
  const log = program.command('log').description('the system log');
  log
    .command('verify')
    .description("check that no entry of an organization's system log was edited, deleted or reordered")
    .requiredOption('--org <id>', 'organization id')
    .option('--json', 'print JSON')
    .action(async (options: { org: string; json?: boolean }) => {
      await cli.withDatabase(async ({ db }) => {
        const organizationId = cli.orgIdFrom(options.org);
        if (!(await findOrganization(db, organizationId)))
          throw new Error(`organization ${organizationId} does not exist`);
        const verdict = await verifyLogChain(db, organizationId);
        const where = verdict.ok
          ? ''
          : verdict.entryId === null
            ? `after entry ${verdict.entries}`
            : `at entry ${verdict.entries + 1} (log id ${verdict.entryId}, ${verdict.createdAt} UTC)`;
        cli.print(
          { organization_id: organizationId, ...verdict },
          !!options.json,
          verdict.ok
            ? `the log of organization ${organizationId} is intact: ${verdict.entries} entries, head ${verdict.head}`
            : `the log of organization ${organizationId} is broken ${where}: ${verdict.reason}`,
        );
        if (!verdict.ok) process.exitCode = 1;
      });
    });
}
