import { listTenantIds, loadTenant, TenantError } from '../src/tenant/load.ts';
import { readLanderFolder } from '../src/tenant/landers.ts';
import { join } from 'node:path';
import { existsSync } from 'node:fs';
import { isIconId } from '../src/lib/icons.ts';
import { tablerSvg } from '../src/server/icons.ts';

/**
 * Every problem in the tenant files and lander variants, as "file: field path: message" lines.
 * Also refuses a domain claimed by two tenants, since the Host could not choose between them, and
 * one company id for two companies, whose invoices would share one run of numbers.
 */
export function checkAll(tenantsDir: string): string[] {
  const problems: string[] = [];
  const owners = new Map<string, string>();
  let defaultBrand: string | undefined;
  const companies = new Map<number, { id: string; name: string }>();
  for (const id of listTenantIds(tenantsDir)) {
    try {
      const tenant = loadTenant(id, tenantsDir);
      if (tenant.default) {
        if (defaultBrand) problems.push(`tenants/${id}/tenant.json: default: ${defaultBrand} is the default brand already; one brand at most`);
        else defaultBrand = id;
      }
      // Invoice numbers run per company id: two companies under one id would share a counter.
      const company = companies.get(tenant.company.id);
      if (company && company.name !== tenant.company.name) {
        problems.push(`tenants/${id}/tenant.json: company.id: ${tenant.company.id} is the id of ${company.name} (tenant ${company.id}); give ${tenant.company.name} an id of its own`);
      } else if (!company) companies.set(tenant.company.id, { id, name: tenant.company.name });
      tenant.domains.forEach((domain, i) => {
        const owner = owners.get(domain);
        if (owner) problems.push(`tenants/${id}/tenant.json: domains.${i}: ${domain} is already the domain of tenant ${owner}`);
        else owners.set(domain, id);
      });
      // A Tabler id the set lacks would draw nothing where the fictional marker belongs.
      if (isIconId(tenant.fictional_icon) && !tablerSvg(tenant.fictional_icon.slice('tabler:'.length))) {
        problems.push(`tenants/${id}/tenant.json: fictional_icon: ${tenant.fictional_icon} is not an icon of the Tabler set (https://tabler.io/icons)`);
      }
    } catch (error) {
      if (!(error instanceof TenantError)) throw error;
      problems.push(...error.problems.map((p) => `${error.file}: ${p}`));
    }
    const landers = readLanderFolder(join(tenantsDir, id, 'landers'), `tenants/${id}/landers`);
    problems.push(...landers.errors);
    // A hero named without a leading / is a file of the brand's assets/ folder: it must be there.
    for (const v of landers.variants) {
      if (v.hero && !v.hero.startsWith('/') && !existsSync(join(tenantsDir, id, 'assets', v.hero))) {
        problems.push(`${v.file}: hero: tenants/${id}/assets/${v.hero} does not exist`);
      }
    }
  }
  problems.push(...readLanderFolder(join(tenantsDir, '_defaults', 'landers'), 'tenants/_defaults/landers').errors);
  return problems;
}

/**
 * What the environment lacks for the brands (`sitegen check` warns; a build needs no keys): a brand
 * on Mollie whose key variable is empty answers 503 to every payment until it is set.
 */
export function missingPaymentKeys(tenantsDir: string, env: Record<string, string | undefined> = process.env): string[] {
  return listTenantIds(tenantsDir).flatMap((id) => {
    try {
      const { payments } = loadTenant(id, tenantsDir);
      return payments.provider === 'mollie' && !env[payments.mollie_api_key_env] ? [`tenants/${id}/tenant.json: payments: the brand uses Mollie but ${payments.mollie_api_key_env} is not set; its payments fail until it is`] : [];
    } catch (error) {
      if (error instanceof TenantError) return [];
      throw error;
    }
  });
}
