import nodemailer, { type Transporter } from 'nodemailer';

/**
 * SMTP settings, read from the environment when a plugin loads (the variables are listed in
 * docs/communication.md). Without SMTP_HOST no e-mail is sent: callers record that the channel is off.
 */
export interface SmtpSettings {
  host: string | undefined;
  port: number;
  secure: boolean;
  user: string | undefined;
  password: string | undefined;
  from: string;
}

export function loadSmtpSettings(env: Record<string, string | undefined> = process.env): SmtpSettings {
  const secure = /^(1|true|yes)$/i.test(env.SMTP_SECURE ?? '');
  const port = Number(env.SMTP_PORT || (secure ? 465 : 587));
  if (!Number.isInteger(port) || port <= 0 || port > 65_535) throw new Error(`SMTP_PORT must be a port number, got "${env.SMTP_PORT}"`);
  return {
    host: env.SMTP_HOST || undefined,
    port,
    secure,
    user: env.SMTP_USER || undefined,
    password: env.SMTP_PASSWORD || undefined,
    from: env.SMTP_FROM || 'crewplan <no-reply@crewplan.invalid>',
  };
}

/** The nodemailer transport of the settings; undefined when no SMTP server is configured. */
export function smtpTransport(settings: SmtpSettings): Transporter | undefined {
  if (!settings.host) return undefined;
  return nodemailer.createTransport({
    host: settings.host,
    port: settings.port,
    secure: settings.secure,
    auth: settings.user ? { user: settings.user, pass: settings.password ?? '' } : undefined,
  });
}

export const SMTP_OFF = 'No SMTP server is configured (SMTP_HOST).';

/** The first address of a user's `emails` (JSON array text), or undefined. */
export function firstEmail(emails: string | null | undefined): string | undefined {
  if (!emails) return undefined;
  const list = JSON.parse(emails) as unknown[];
  return typeof list[0] === 'string' && list[0] ? list[0] : undefined;
}
