import { resolve } from 'node:path';
import type { Command } from 'commander';
import { isPostgresUrl } from '../config.js';
import type { CliContext } from './context.js';

const PG_HINT =
  'DATABASE_URL names PostgreSQL: back it up with pg_dump and restore it with pg_restore (docs/operations.md)';

/** `backup` and `restore` of the SQLite database (docs/operations.md). */
export function registerBackupCommands(program: Command, cli: CliContext): void {
  program
    .command('backup')
    .description('copy the SQLite database, also while the server runs (SQLite online backup), into FILE')
    .requiredOption('--to <file>', 'the backup file to write')
    .option('--json', 'print JSON')
    .action(async (options: { to: string; json?: boolean }) => {
      if (isPostgresUrl(cli.config.databaseUrl)) throw new Error(PG_HINT);
      const { backupSqlite } = await import('./sqlite-backup.js');
      const result = await backupSqlite(cli.config.sqlitePath, resolve(options.to));
      cli.print(
        result,
        !!options.json,
        `backed up ${cli.config.sqlitePath} to ${result.file} (${result.pages} pages, integrity ok)`,
      );
    });

  program
    .command('restore')
    .description(
      'put a backup in place of the SQLite database; stop the server first (refused while the database is in use)',
    )
    .requiredOption('--from <file>', 'the backup file')
    .option('--json', 'print JSON')
    .action(async (options: { from: string; json?: boolean }) => {
      if (isPostgresUrl(cli.config.databaseUrl)) throw new Error(PG_HINT);
      const { restoreSqlite } = await import('./sqlite-backup.js');
      const result = await restoreSqlite(resolve(options.from), cli.config.sqlitePath);
      cli.print(
        result,
        !!options.json,
        `restored ${result.file} from ${options.from} (schema ${result.migration ?? 'empty'}); start the ` +
          'server to apply newer migrations',
      );
    });
}
