import nodemailer, { type Transporter } from 'nodemailer';

import type { SmtpSettings } from '../config.js';

export type { SmtpSettings };

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
