import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseTenant, TENANT_ID, type Tenant } from './schema.ts';

/** Where tenant folders live; TENANTS_DIR overrides (tests use a temporary copy). */
export function tenantsDir(): string {
  return resolve(process.env.TENANTS_DIR ?? join(import.meta.dirname, '../../tenants'));
}

/** The ids of all tenant folders (those holding a tenant.json), in name order. */
export function listTenantIds(dir = tenantsDir()): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && TENANT_ID.test(e.name) && existsSync(join(dir, e.name, 'tenant.json')))
    .map((e) => e.name)
    .sort();
}

export class TenantError extends Error {
  readonly file: string;
  readonly problems: string[];

  constructor(file: string, problems: string[]) {
    super(problems.map((p) => `${file}: ${p}`).join('\n'));
    this.file = file;
    this.problems = problems;
  }
}

/** Reads and validates one tenant file; throws TenantError with every problem. */
export function loadTenant(id: string, dir = tenantsDir()): Tenant {
  const file = join(dir, id, 'tenant.json');
  const shown = `tenants/${id}/tenant.json`;
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new TenantError(shown, [`(file): ${(error as Error).message}`]);
  }
  const result = parseTenant(id, json);
  if ('errors' in result) throw new TenantError(shown, result.errors);
  return result.tenant;
}

export function loadAllTenants(dir = tenantsDir()): Tenant[] {
  return listTenantIds(dir).map((id) => loadTenant(id, dir));
}
