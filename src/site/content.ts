import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { marked } from 'marked';
import { parse as parseYaml } from 'yaml';
import type { Tenant } from '../tenant/schema.ts';
import { termsVersionDate } from '../lib/terms.ts';

/** Folder of the static page texts, content/pages/<page>.<locale>.md (read at build time). */
const CONTENT_DIR = join(process.env.SITEGEN_ROOT ?? process.cwd(), 'content', 'pages');

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The company and brand facts the page texts refer to as {placeholders}. */
export function pageFacts(tenant: Tenant, locale: string): Record<string, string> {
  const c = tenant.company;
  return {
    brand: tenant.name,
    domain: tenant.domain,
    company_name: c.name,
    company_address: c.address,
    company_city: c.city,
    company_country: c.country,
    kvk: c.kvk,
    vat_numbers: c.vat_numbers.join(', '),
    tradenames: c.tradenames.join(', ') || tenant.name,
    support_email: tenant.support_email,
    support_phone: tenant.support_phone,
    refund_days: String(tenant.refund_days),
    message_credits: String(tenant.message_credits),
    signup_credits: String(tenant.signup_credits),
    terms_date: new Intl.DateTimeFormat(locale, { dateStyle: 'long' }).format(termsVersionDate(c.added)),
  };
}

export interface StaticPageText { title: string; description: string; html: string }

/** One static page in a locale, falling back to the tenant's fallback locale, facts filled in. */
export function staticPage(page: string, locale: string, tenant: Tenant): StaticPageText {
  const candidates = [locale, tenant.locales.fallback, 'nl'];
  const file = candidates.map((l) => join(CONTENT_DIR, `${page}.${l}.md`)).find((f) => existsSync(f));
  if (!file) throw new Error(`content/pages: no text for page ${page} in ${candidates.join(', ')}`);
  const source = readFileSync(file, 'utf8');
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n([\s\S]*)$/.exec(source);
  if (!match) throw new Error(`${file}: missing frontmatter`);
  const front = parseYaml(match[1]!) as { title: string; description: string };
  const facts = pageFacts(tenant, locale);
  const fill = (text: string, escape: boolean) =>
    text.replace(/\{(\w+)\}/g, (whole, key: string) => (key in facts ? (escape ? escapeHtml(facts[key]!) : facts[key]!) : whole));
  return { title: fill(front.title, false), description: fill(front.description, false), html: marked.parse(fill(match[2]!, true), { async: false }) };
}
