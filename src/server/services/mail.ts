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
  kind: 'mail_activate' | 'mail_reset' | 'mail_change' | 'mail_reactivate' | 'mail_complaint' | 'mail_new_conversation' | 'mail_new_message' | 'mail_like' | 'mail_unread_reminder' | 'mail_photo_rejected' | 'mail_complaint_decided';
  link: string;
  params?: Record<string, string | number>;
  /** One-click unsubscribe URL (RFC 8058), for mails a member may opt out of. */
  unsubscribe?: string;
  /** A member's own words, quoted after the intro (a complaint's message). */
  quote?: string;
  /** Where a reply goes instead of the brand's support address (a complaint: the reporter). */
  replyTo?: string;
}

/** RFC 2047 encoded word for a header value that is not plain ASCII. */
function encodeWord(value: string): string {
  return /^[\x20-\x7e]*$/.test(value) ? value : `=?UTF-8?B?${Buffer.from(value).toString('base64')}?=`;
}

/**
 * The MIME message, built here rather than by nodemailer's composer so that the text stays
 * 8bit UTF-8: links in the outbox files read as they are, not quoted-printable-wrapped.
 */
function mime(m: { from: string; to: string; replyTo: string; subject: string; domain: string; text: string; html: string; unsubscribe?: string }): string {
  const boundary = `=_${randomBytes(12).toString('hex')}`;
  const headers = [
    `From: ${m.from}`,
    `To: ${m.to}`,
    `Reply-To: ${m.replyTo}`,
    `Subject: ${encodeWord(m.subject)}`,
    `Date: ${new Date().toUTCString()}`,
    `Message-ID: <${randomBytes(12).toString('hex')}@${m.domain}>`,
    'MIME-Version: 1.0',
    ...(m.unsubscribe ? [`List-Unsubscribe: <${m.unsubscribe}>`, 'List-Unsubscribe-Post: List-Unsubscribe=One-Click'] : []),
    `Content-Type: multipart/alternative; boundary="${boundary}"`,
  ];
  const part = (type: string, body: string) =>
    `--${boundary}\r\nContent-Type: ${type}; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n${body.replace(/\r?\n/g, '\r\n')}\r\n`;
  return `${headers.join('\r\n')}\r\n\r\n${part('text/plain', m.text)}${part('text/html', m.html)}--${boundary}--\r\n`;
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
      const unsubscribeLine = mail.unsubscribe ? `\n${message('mail_unsubscribe', locale, {}, fallback)}: ${mail.unsubscribe}\n` : '';
      const quoted = mail.quote ? `\n\n${mail.quote.replace(/^/gm, '> ')}` : '';
      const text = `${t('intro')}${quoted}\n\n${t('action')}:\n${mail.link}\n\n${footer}\n${unsubscribeLine}`;
      const html = `<!doctype html>\n<html lang="${locale}"><body style="font-family:system-ui,Arial,sans-serif;color:#1d1a22">
<p style="font-size:20px;font-weight:700;color:${tenant.theme.primary}">${escapeHtml(tenant.name)}</p>
<p>${escapeHtml(t('intro'))}</p>
${mail.quote ? `<blockquote style="border-left:3px solid #ccc;margin:0;padding-left:12px;white-space:pre-line">${escapeHtml(mail.quote)}</blockquote>` : ''}
<p><a href="${escapeHtml(mail.link)}" style="display:inline-block;background:${tenant.theme.primary};color:#fff;padding:12px 20px;border-radius:999px;text-decoration:none;font-weight:600">${escapeHtml(t('action'))}</a></p>
<p style="font-size:12px;color:#555">${escapeHtml(mail.link)}</p>
<p style="font-size:12px;color:#555">${escapeHtml(footer)}</p>
${mail.unsubscribe ? `<p style="font-size:12px"><a href="${escapeHtml(mail.unsubscribe)}">${escapeHtml(message('mail_unsubscribe', locale, {}, fallback))}</a></p>` : ''}
</body></html>`;
      const from = `no-reply@${tenant.domain}`;
      const raw = mime({
        from: `${encodeWord(tenant.mail_name)} <${from}>`,
        to: mail.to,
        replyTo: mail.replyTo ?? tenant.support_email,
        subject: t('subject'),
        domain: tenant.domain,
        text,
        html,
        unsubscribe: mail.unsubscribe,
      });
      await transport.sendMail({ envelope: { from, to: [mail.to] }, raw });
      if (!opts.smtpUrl) {
        mkdirSync(opts.outboxDir, { recursive: true });
        const file = join(opts.outboxDir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${mail.kind}-${randomBytes(3).toString('hex')}.eml`);
        writeFileSync(file, raw);
        log(`mail: ${mail.kind} to ${mail.to}: ${mail.link}`);
      }
    },
  };
}

export type MailService = ReturnType<typeof createMailService>;
