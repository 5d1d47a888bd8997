import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI_ENTRY } from '../../test/helpers/entries.js';
import { smtpTransport } from '../core/mail.js';

/** `mail catch`: the demo's mail server (README, "Try it"), as a newcomer runs it, fed by crewplan's own transport. */
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill('SIGTERM');
});

/** Starts `mail catch --port 0` and resolves with its port (from the line on stderr) and its output so far. */
function startCatcher(...args: string[]): Promise<{ port: number; output: () => string }> {
  const child = spawn(process.execPath, [CLI_ENTRY, 'mail', 'catch', '--port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => (stdout += chunk));
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`mail catch exited with ${code}: ${stderr}`)));
    child.stderr!.on('data', (chunk) => {
      stderr += chunk;
      const port = /catching mail on 127\.0\.0\.1:(\d+): start crewplan with SMTP_HOST=127\.0\.0\.1 SMTP_PORT=\1/.exec(
        stderr,
      )?.[1];
      if (port) resolve({ port: Number(port), output: () => stdout });
    });
  });
}

const link = `http://127.0.0.1:8080/app/#/offers/cpo_${'x'.repeat(90)}`;

async function send(port: number) {
  const transport = smtpTransport({
    host: '127.0.0.1',
    port,
    secure: false,
    user: undefined,
    password: undefined,
    from: 'crewplan <no-reply@crewplan.test>',
  })!;
  await transport.sendMail({
    from: 'crewplan <no-reply@crewplan.test>',
    to: 'Olivia Stone <olivia@example.com>',
    subject: 'Open shift: Medic 1, Sat 07:00–Sun 07:00',
    text: `Café crew: a shift is open.\nAccept or decline: ${link}\n`,
  });
  transport.close();
}

describe('npm run cli -- mail catch', () => {
  it('prints each message crewplan sends, decoded, with its links whole (--json: a line each)', async () => {
    const catcher = await startCatcher('--json');
    await send(catcher.port);
    await send(catcher.port);
    await expect.poll(() => catcher.output().trim().split('\n').length).toBe(2);
    const [first] = catcher
      .output()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(first).toEqual({
      received_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      from: 'crewplan <no-reply@crewplan.test>',
      to: ['Olivia Stone <olivia@example.com>'],
      subject: 'Open shift: Medic 1, Sat 07:00–Sun 07:00',
      text: `Café crew: a shift is open.\nAccept or decline: ${link}`,
    });
  });

  it('prints a readable block per message by default', async () => {
    const catcher = await startCatcher();
    await send(catcher.port);
    await expect.poll(catcher.output).toContain(link);
    const [heading, from, to, subject, blank, body] = catcher.output().split('\n');
    expect(heading).toMatch(/^── message 1, \d{4}-\d{2}-\d{2}T\S+$/);
    expect([from, to, subject, blank, body]).toEqual([
      'from: crewplan <no-reply@crewplan.test>',
      'to: Olivia Stone <olivia@example.com>',
      'subject: Open shift: Medic 1, Sat 07:00–Sun 07:00',
      '',
      'Café crew: a shift is open.',
    ]);
  });

  it('refuses a port that is not one, in words', async () => {
    await expect(startCatcher('--port', 'seventy')).rejects.toThrow(/--port must be a port number, got "seventy"/);
  });
});
