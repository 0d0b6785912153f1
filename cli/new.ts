import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { listTenantIds, loadTenant } from '../src/tenant/load.ts';
import { parseTenant, TENANT_ID, type TenantInput } from '../src/tenant/schema.ts';
import type { Locale } from '../src/lib/locales.ts';
import { checkAll } from './check.ts';

export interface NewOptions {
  domain: string;
  name?: string;
  niche?: number;
  locales?: string;
  countries?: string;
  primary?: string;
  secondary?: string;
  supportEmail?: string;
}

const list = (value: string | undefined) => value?.split(',').map((s) => s.trim()).filter(Boolean);

/**
 * Writes tenants/<id>/tenant.json from the options. The company block is copied from the first
 * existing brand (one operator runs many brands); everything can be edited in the file afterwards.
 */
export function createTenantFile(dir: string, id: string, opts: NewOptions): { file: string; domain: string } | { errors: string[] } {
  const file = join(dir, id, 'tenant.json');
  const shown = `tenants/${id}/tenant.json`;
  if (!TENANT_ID.test(id)) return { errors: [`${shown}: id: "${id}" must start with a letter and hold 2 to 31 lower-case letters, digits or dashes`] };
  if (existsSync(file)) return { errors: [`${shown}: (file): exists already; edit it and run \`sitegen check\` and \`sitegen build ${id}\``] };
  const existing = listTenantIds(dir);
  const template = existing.length ? loadTenant(existing[0]!, dir) : undefined;
  const locales = (list(opts.locales) ?? ['nl']) as Locale[];
  const domain = opts.domain.toLowerCase();
  const input: TenantInput = {
    name: opts.name ?? id.charAt(0).toUpperCase() + id.slice(1),
    domains: [domain, `www.${domain}`],
    domain_language: locales[0],
    niche: (opts.niche ?? 1) as TenantInput['niche'],
    theme: { ...(opts.primary ? { primary: opts.primary } : {}), ...(opts.secondary ? { secondary: opts.secondary } : {}) },
    locales: { available: locales, default: locales[0], fallback: locales[0] },
    countries: list(opts.countries)?.map((c) => c.toUpperCase()) ?? ['NL'],
    company: template
      ? { ...template.company }
      : { name: `${id} B.V.`, address: '-', kvk: '-', city: '-', country: '-' },
    support_email: opts.supportEmail ?? `support@${domain}`,
    support_phone: template?.support_phone ?? '',
  };
  const parsed = parseTenant(id, input);
  if ('errors' in parsed) return { errors: parsed.errors.map((e) => `${shown}: ${e}`) };
  // A domain another brand has would let the Host choose neither (sitegen check refuses it too).
  for (const other of existing) {
    let domains: string[];
    try {
      domains = loadTenant(other, dir).domains;
    } catch {
      continue;
    }
    const i = parsed.tenant.domains.findIndex((d) => domains.includes(d));
    if (i !== -1) return { errors: [`${shown}: domains.${i}: ${parsed.tenant.domains[i]} is already the domain of tenant ${other}`] };
  }
  const before = new Set(checkAll(dir));
  mkdirSync(join(dir, id), { recursive: true });
  writeFileSync(file, `${JSON.stringify(input, null, 2)}\n`);
  // Whatever problem the new file brings, to itself or to another brand, undoes it.
  const problems = checkAll(dir).filter((p) => !before.has(p));
  if (problems.length) {
    rmSync(join(dir, id), { recursive: true, force: true });
    return { errors: problems };
  }
  return { file: shown, domain };
}
