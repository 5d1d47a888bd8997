import { WebhookTargets } from '../resources/webhooks/targets.js';
import type { Command } from 'commander';
import { todayIn } from '../core/time.js';
import { withProgress } from './org-transfer.js';
import { commandGroup, type CliContext } from './context.js';

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * `import api`: an organization read through the public v1 API of another server, written as a new organization here.
 */
export function registerApiImportCommand(program: Command, cli: CliContext): void {
  const imports = commandGroup(program, 'import', 'bring an organization in from elsewhere');
  imports
    .command('api')
    .description(
      'read users, catalogs, assignments, the schedule, time off and banks through the public v1 API of a ' +
        'server that speaks it, and write them as a new organization',
    )
    .requiredOption('--base-url <url>', 'the source server, without /v1')
    .requiredOption('--client-id <id>', 'an API credential of the source organization')
    .requiredOption('--client-secret <secret>', 'its secret')
    .option('--from <date>', 'first day of schedule and time off to read (default: the first of this month)')
    .option('--to <date>', 'last day (default: three months after --from)')
    .option('--timezone <tz>', 'the organization time zone, when the source does not show it')
    .option('--name <name>', 'name of the new organization (default: the source name)')
    .option('--json', 'print JSON')
    .action(
      async (options: {
        baseUrl: string;
        clientId: string;
        clientSecret: string;
        from?: string;
        to?: string;
        timezone?: string;
        name?: string;
        json?: boolean;
      }) => {
        const from =
          options.from ??
          todayIn(options.timezone ?? 'UTC')
            .with({ day: 1 })
            .toString();
        const to =
          options.to ??
          todayIn(options.timezone ?? 'UTC')
            .with({ day: 1 })
            .add({ months: 3 })
            .subtract({ days: 1 })
            .toString();
        for (const [name, value] of [
          ['--from', from],
          ['--to', to],
        ])
          if (!DATE.test(value)) throw new Error(`${name} must be a date YYYY-MM-DD, got "${value}"`);
        if (from > to) throw new Error('--from must not be after --to');
        const { readOrganizationFromApi } = await import('../transfer/api-import.js');
        const { importOrganization } = await import('../transfer/import.js');
        const read = await readOrganizationFromApi({ ...options, from, to });
        await cli.withDatabase(async ({ db }) => {
          const result = await withProgress('import api', !!options.json, (onProgress) =>
            importOrganization(db, read.document, {
              dataDir: cli.config.dataDir,
              secretKey: cli.config.secretKey,
              webhookTargets: new WebhookTargets(cli.config),
              name: options.name,
              onProgress,
            }),
          );
          const output = {
            organization_id: result.organization_id,
            client_id: result.client_id,
            client_secret: result.client_secret,
            counts: result.counts,
            not_carried: read.not_carried,
          };
          const text = [
            `organization ${result.organization_id} imported from ${options.baseUrl} (${from} to ${to})`,
            `client_id:     ${result.client_id}`,
            `client_secret: ${result.client_secret} (shown once)`,
            ...Object.entries(result.counts).map(([table, n]) => `  ${table}: ${n}`),
            'not carried by the API:',
            ...read.not_carried.map((line) => `  - ${line}`),
          ].join('\n');
          cli.print(output, !!options.json, text);
        });
      },
    );
}
