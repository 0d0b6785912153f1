import { readFileSync, readdirSync, statSync, type Dirent } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseTenant, TENANT_ID, type Tenant } from './schema.ts';

/** Where tenant folders live; TENANTS_DIR overrides (tests use a temporary copy). */
export function tenantsDir(): string {
  return resolve(process.env.TENANTS_DIR ?? join(import.meta.dirname, '../../tenants'));
}

/** The ids of all tenant folders (those holding a tenant.json), in name order. */
export function listTenantIds(dir = tenantsDir()): string[] {
  return tenantFiles(dir).map(([id]) => id);
}

/**
 * The tenant folders (as listTenantIds) with their tenant.json's mtime, in name order: one stat a
 * folder, where listing then looking would take two (the runtime's registry looks every second,
 * at every brand's file).
 */
export function tenantFiles(dir = tenantsDir()): [id: string, mtime: number][] {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return []; // no tenants folder yet
  }
  const found: [string, number][] = [];
  for (const id of tenantFolders(entries)) {
    const stat = statSync(join(dir, id, 'tenant.json'), { throwIfNoEntry: false });
    if (stat) found.push([id, stat.mtimeMs]);
  }
  return found;
}

/** How many tenant files tenantFilesAsync stats at once: enough to be quick, few enough to leave libuv's pool to requests' file reads. */
const STATS_AT_ONCE = 64;

/**
 * tenantFiles without holding the event loop: the listing and the stats run in libuv's pool, a
 * batch at a time (the runtime's registry looks every second, at 1,000 brands 24-35 ms of stats).
 */
export async function tenantFilesAsync(dir = tenantsDir()): Promise<[id: string, mtime: number][]> {
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return []; // no tenants folder yet
  }
  const ids = tenantFolders(entries);
  const found: [string, number][] = [];
  for (let i = 0; i < ids.length; i += STATS_AT_ONCE) {
    const batch = ids.slice(i, i + STATS_AT_ONCE);
    const stats = await Promise.all(batch.map((id) => stat(join(dir, id, 'tenant.json')).catch(() => undefined)));
    stats.forEach((s, j) => s && found.push([batch[j]!, s.mtimeMs]));
  }
  return found;
}

/** The names of the tenant folders among a listing, in name order. */
function tenantFolders(entries: Dirent[]): string[] {
  return entries
    .filter((e) => e.isDirectory() && TENANT_ID.test(e.name))
    .map((e) => e.name)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
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

/** Every tenant whose file is valid now, the others left out (an invalid tenant file is served by no one). */
export function loadValidTenants(dir = tenantsDir()): Tenant[] {
  return listTenantIds(dir).flatMap((id) => {
    try {
      return [loadTenant(id, dir)];
    } catch {
      return [];
    }
  });
}
