import { WebhookTargets } from '../resources/webhooks/targets.js';
import { readFile } from 'node:fs/promises';
import { buffer, text } from 'node:stream/consumers';
import { Presets, SingleBar } from 'cli-progress';
import type { Command } from 'commander';
import type { ImportResult } from '../transfer/import.js';
import type { CliContext } from './context.js';

/** A file's text, or standard input's when the file is "-" or left out. */
export async function readInput(file: string | undefined): Promise<string> {
  return file === undefined || file === '-' ? text(process.stdin) : readFile(file, 'utf8');
}

/** The bytes of FILE, or of stdin when it is left out or "-" (the caller decodes them). */
export async function readInputBytes(file: string | undefined): Promise<Buffer> {
  return file === undefined || file === '-' ? Buffer.from(await buffer(process.stdin)) : readFile(file);
}

/** A progress bar on a terminal (stderr); none with --json or when stderr is not a terminal. */
export async function withProgress<T>(
  label: string,
  quiet: boolean,
  fn: (onProgress?: (done: number, total: number) => void) => Promise<T>,
): Promise<T> {
  if (quiet || !process.stderr.isTTY) return fn();
  const bar = new SingleBar(
    { stream: process.stderr, format: `${label} [{bar}] {percentage}% | {value}/{total} rows | {duration}s` },
    Presets.shades_classic,
  );
  bar.start(1, 0);
  try {
    return await fn((done, total) => {
      bar.setTotal(total);
      bar.update(done);
    });
  } finally {
    bar.stop();
  }
}

function importSummary(result: ImportResult): string {
  const rows = Object.values(result.counts).reduce((sum, n) => sum + n, 0);
  const lines = [
    `organization ${result.organization_id} imported: ${rows} rows`,
    `client_id:     ${result.client_id}`,
    `client_secret: ${result.client_secret} (shown once)`,
  ];
  for (const webhook of result.webhooks)
    lines.push(`webhook ${webhook.id} ${webhook.url}: new secret ${webhook.secret} (shown once)`);
  if (result.dangling > 0)
    lines.push(`${result.dangling} references to records the export did not hold were left empty`);
  return lines.join('\n');
}

/**
 * `org export` and `org import` (docs/operations.md). Their modules load when a command runs, not with every CLI
 * command.
 */
export function registerOrgTransferCommands(org: Command, cli: CliContext): void {
  org
    .command('export')
    .description(
      'write everything an organization owns as one JSON document on stdout (no credentials, tokens or secrets)',
    )
    .requiredOption('--org <id>', 'organization id')
    .action(async (options: { org: string }) => {
      const { exportOrganization } = await import('../transfer/export.js');
      await cli.withDatabase(async ({ db }) => {
        const { document, warnings } = await exportOrganization(db, cli.orgIdFrom(options.org), cli.config.dataDir);
        process.stderr.write(`database: ${cli.database}\n`);
        for (const warning of warnings) process.stderr.write(`warning: ${warning}\n`);
        process.stdout.write(`${JSON.stringify(document)}\n`);
      });
    });

  org
    .command('import')
    .description(
      'load an organization export (a file, or stdin) as a new organization with a new API credential, in ' +
        'one transaction',
    )
    .argument('[file]', 'the export; stdin when left out or "-"')
    .option('--name <name>', 'name of the new organization (default: the exported name)')
    .option('--json', 'print JSON: {organization_id, client_id, client_secret, counts, webhooks}')
    .action(async (file: string | undefined, options: { name?: string; json?: boolean }) => {
      const { importOrganization, parseDocument } = await import('../transfer/import.js');
      const document = parseDocument(await readInput(file));
      await cli.withDatabase(async ({ db }) => {
        const result = await withProgress('org import', !!options.json, (onProgress) =>
          importOrganization(db, document, {
            dataDir: cli.config.dataDir,
            secretKey: cli.config.secretKey,
            webhookTargets: new WebhookTargets(cli.config),
            name: options.name,
            onProgress,
          }),
        );
        cli.print(result, !!options.json, importSummary(result));
      });
    });
}
