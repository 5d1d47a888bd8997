import type { Command } from 'commander';
import { startMailCatcher } from '../core/mail-catcher.js';

/** `mail catch`: the catcher in the foreground, printing each message, until interrupted. */
export function registerMailCommands(program: Command): void {
  program
    .command('mail')
    .description('mail while trying crewplan out')
    .command('catch')
    .description(
      'a mail server on this machine that prints every message crewplan sends instead of delivering it; ' +
        'start the server with SMTP_HOST=127.0.0.1 SMTP_PORT=1025 (the port given here)',
    )
    .option('--host <address>', 'address to listen on', '127.0.0.1')
    .option('--port <port>', 'port to listen on (0: any free port)', '1025')
    .option('--json', 'one JSON line per message')
    .action(async (options: { host: string; port: string; json?: boolean }) => {
      const port = Number(options.port);
      if (!Number.isInteger(port) || port < 0 || port > 65_535)
        throw new Error(`--port must be a port number, got "${options.port}"`);
      let count = 0;
      const catcher = await startMailCatcher(options.host, port, (mail) => {
        count += 1;
        if (options.json) process.stdout.write(`${JSON.stringify(mail)}\n`);
        else
          process.stdout.write(
            `── message ${count}, ${mail.received_at}\nfrom: ${mail.from}\nto: ${mail.to.join(', ')}\n` +
              `subject: ${mail.subject}\n\n${mail.text}\n\n`,
          );
      });
      process.stderr.write(
        `catching mail on ${options.host}:${catcher.port}: start crewplan with ` +
          `SMTP_HOST=${options.host} SMTP_PORT=${catcher.port} (Ctrl-C stops)\n`,
      );
      await new Promise<void>((resolve) => {
        process.once('SIGINT', resolve);
        process.once('SIGTERM', resolve);
      });
      await catcher.close();
    });
}
