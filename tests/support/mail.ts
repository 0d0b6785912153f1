import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The newest mail in the outbox of the runtime the browser tests run against, sent to an address. */
export function mailTo(address: string): string | undefined {
  const dir = process.env.E2E_OUTBOX;
  if (!dir) throw new Error('E2E_OUTBOX is not set: run the browser tests through playwright.config.ts');
  let files: string[];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith('.eml')).sort().reverse();
  } catch {
    return undefined;
  }
  const to = new RegExp(`^To:.*${address.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'mi');
  for (const file of files) {
    // The runtime writes 8bit mails: decoding quoted-printable there broke a link whose token began
    // with "3d" ("token=3d…" read as "token=…"). Only a file that says it is quoted-printable is decoded.
    const raw = readFileSync(join(dir, file), 'utf8');
    const text = /^Content-Transfer-Encoding:\s*quoted-printable/im.test(raw) ? raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))) : raw;
    if (to.test(text)) return text;
  }
  return undefined;
}

/** The path and query of the first link in a mail whose path matches, to open on the test's host. */
export function linkIn(mail: string | undefined, path: RegExp): string | undefined {
  for (const match of (mail ?? '').matchAll(/https?:\/\/[^\s"<>]+/g)) {
    const url = new URL(match[0]);
    if (path.test(url.pathname)) return url.pathname + url.search;
  }
  return undefined;
}

/** The code in the newest SMS to a number (E.164) in the outbox of the runtime the browser tests run against. */
export function smsCodeTo(number: string): string | undefined {
  const dir = join(process.env.E2E_OUTBOX ?? '', 'sms');
  let files: string[];
  try {
    files = readdirSync(dir).sort().reverse();
  } catch {
    return undefined;
  }
  for (const file of files) {
    const text = readFileSync(join(dir, file), 'utf8');
    if (text.startsWith(`To: ${number}\n`)) return /\b(\d{6})\b/.exec(text)?.[1];
  }
  return undefined;
}
