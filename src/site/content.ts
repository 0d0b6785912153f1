import { marked } from 'marked';
import { parse as parseYaml } from 'yaml';
import type { Tenant } from '../tenant/schema.ts';
import { termsVersionDate } from '../lib/terms.ts';

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

/**
 * A text marketers edit that every brand shares (content/pages/<page>.<locale>.md, or a lander
 * under tenants/_defaults/landers/): read by the runtime when it renders a brand's output
 * (src/server/output-dependencies.ts), never compiled into the program (docs/ONE-BUILD.md step 6).
 */
export interface SharedText {
  /** Its path as shown, such as content/pages/terms.nl.md. */
  file: string;
  source: string;
}

/** The static page texts by `<page>.<locale>` (content/pages/terms.nl.md is terms.nl). */
export type PageTexts = ReadonlyMap<string, SharedText>;

/** The text of a static page in a locale: the locale's, else the tenant's fallback locale's, else the Dutch one. */
export function pageTextFor(texts: PageTexts, page: string, locale: string, tenant: Tenant): SharedText {
  const candidates = [locale, tenant.locales.fallback, 'nl'];
  const text = candidates.map((l) => texts.get(`${page}.${l}`)).find((t) => t !== undefined);
  if (!text) throw new Error(`content/pages: no text for page ${page} in ${candidates.join(', ')}`);
  return text;
}

/** One static page's text in a locale, the company's facts filled in. */
export function staticPage(text: SharedText, locale: string, tenant: Tenant): StaticPageText {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n([\s\S]*)$/.exec(text.source);
  if (!match) throw new Error(`${text.file}: missing frontmatter`);
  const front = parseYaml(match[1]!) as { title: string; description: string };
  const facts = pageFacts(tenant, locale);
  const fill = (text: string, escape: boolean) =>
    text.replace(/\{(\w+)\}/g, (whole, key: string) => (key in facts ? (escape ? escapeHtml(facts[key]!) : facts[key]!) : whole));
  return { title: fill(front.title, false), description: fill(front.description, false), html: marked.parse(fill(match[2]!, true), { async: false }) };
}
