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

/** The first address of a user's `emails` (JSON array text), or undefined: none, or text that is not such a list. */
export function firstEmail(emails: string | null | undefined): string | undefined {
  if (!emails) return undefined;
  try {
    const list: unknown = JSON.parse(emails);
    return Array.isArray(list) && typeof list[0] === 'string' && list[0] ? list[0] : undefined;
  } catch {
    return undefined;
  }
}
