import type { Command } from 'commander';
import PostalMime from 'postal-mime';
import { SMTPServer } from 'smtp-server';

/** One message as the catcher prints it. */
export interface CaughtMail {
  received_at: string;
  from: string;
  to: string[];
  subject: string;
  text: string;
}

const addressText = (a: { name?: string; address?: string }) =>
  a.name ? `${a.name} <${a.address}>` : (a.address ?? '');

/**
 * A mail server for trying crewplan out on one machine: it accepts whatever the server sends (no
 * TLS, no login) and hands each message, parsed, to `caught` with the bare addresses it was sent to
 * and its source. Nothing is delivered anywhere.
 */
export async function startMailCatcher(
  host: string,
  port: number,
  caught: (mail: CaughtMail, envelope: { to: string[]; source: Buffer }) => void,
): Promise<{ port: number; close: () => Promise<void> }> {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, done) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const source = Buffer.concat(chunks);
        PostalMime.parse(source).then(
          (email) => {
            caught(
              {
                received_at: new Date().toISOString(),
                from: email.from ? addressText(email.from) : '',
                to: (email.to ?? []).map(addressText),
                subject: email.subject ?? '',
                text: (email.text ?? '').trim(),
              },
              { to: session.envelope.rcptTo.map((r) => r.address), source },
            );
            done();
          },
          (error: Error) => done(error),
        );
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.server.address();
  return {
    port: typeof address === 'object' && address ? address.port : port,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

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
