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
