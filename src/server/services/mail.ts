import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Tenant } from '../../tenant/schema.ts';
import { message } from '../i18n.ts';

/**
 * Mail: by default every message is written as an .eml file to the outbox folder and its link
 * is logged, so a fresh clone works offline; with SMTP_URL set it goes out over SMTP.
 */
export interface MailMessage {
  tenant: Tenant;
  to: string;
  locale: string;
  /** Catalogue prefix: <kind>_subject, <kind>_intro, <kind>_action. */
  kind: 'mail_activate' | 'mail_reset' | 'mail_change' | 'mail_reactivate';
  link: string;
  params?: Record<string, string | number>;
  /** One-click unsubscribe URL (RFC 8058), for mails a member may opt out of. */
  unsubscribe?: string;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function createMailService(opts: { outboxDir: string; smtpUrl?: string; log?: (line: string) => void }) {
  const log = opts.log ?? ((line: string) => console.log(line));
  const transport: Transporter = opts.smtpUrl
    ? nodemailer.createTransport(opts.smtpUrl)
    : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });

  return {
    outboxDir: opts.outboxDir,
    async send(mail: MailMessage): Promise<void> {
      const { tenant, locale } = mail;
      const fallback = tenant.locales.fallback;
      const params = { brand: tenant.name, ...mail.params };
      const t = (suffix: string) => message(`${mail.kind}_${suffix}`, locale, params, fallback);
      const footer = message('mail_footer', locale, { brand: tenant.name, company_name: tenant.company.name, support_email: tenant.support_email }, fallback);
      const text = `${t('intro')}\n\n${t('action')}:\n${mail.link}\n\n${footer}\n`;
      const html = `<!doctype html><html lang="${locale}"><body style="font-family:system-ui,Arial,sans-serif;color:#1d1a22">
<p style="font-size:20px;font-weight:700;color:${tenant.theme.primary}">${escapeHtml(tenant.name)}</p>
<p>${escapeHtml(t('intro'))}</p>
<p><a href="${escapeHtml(mail.link)}" style="display:inline-block;background:${tenant.theme.primary};color:#fff;padding:12px 20px;border-radius:999px;text-decoration:none;font-weight:600">${escapeHtml(t('action'))}</a></p>
<p style="font-size:12px;color:#555">${escapeHtml(mail.link)}</p>
<p style="font-size:12px;color:#555">${escapeHtml(footer)}</p></body></html>`;
      const info = await transport.sendMail({
        from: { name: tenant.mail_name, address: `no-reply@${tenant.domain}` },
        replyTo: tenant.support_email,
        to: mail.to,
        subject: t('subject'),
        text,
        html,
        ...(mail.unsubscribe ? { list: { unsubscribe: { url: mail.unsubscribe, comment: 'unsubscribe' } }, headers: { 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' } } : {}),
      });
      if (!opts.smtpUrl) {
        mkdirSync(opts.outboxDir, { recursive: true });
        const file = join(opts.outboxDir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${mail.kind}-${randomBytes(3).toString('hex')}.eml`);
        writeFileSync(file, (info as unknown as { message: Buffer }).message);
        log(`mail: ${mail.kind} to ${mail.to}: ${mail.link}`);
      }
    },
  };
}

export type MailService = ReturnType<typeof createMailService>;
