import { existsSync, lstatSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { listTenantIds, loadValidTenants } from '../src/tenant/load.ts';
import { defaultTenantOf } from '../src/tenant/resolve.ts';
import { TENANT_ID } from '../src/tenant/schema.ts';
import { removeOutput, versionsOf } from '../src/server/output-folders.ts';

/** What `sitegen remove <id>` says of the brand's members: the database keeps them (README "Remove a brand"). */
export const MEMBERS_STAY = (id: string) =>
  `the members of ${id} stay in the database (accounts, messages, payments, invoices): they cannot log in while no brand ${id} is served; a brand made again under the id ${id} serves them again; erase them in the console first if they must go (README "Remove a brand")`;

/** What removing a brand deletes, as the operator reads it; or why it is refused. */
export function planRemoval(tenantsDir: string, distDir: string, id: string, defaultId: string | undefined): { deletes: string[] } | { refused: string } {
  if (!TENANT_ID.test(id) || !existsSync(join(tenantsDir, id))) {
    return { refused: `no brand ${id} in tenants/ (the brands: ${listTenantIds(tenantsDir).join(', ') || 'none'})` };
  }
  // The brand `npm start` serves on localhost and on every host no brand names (src/tenant/resolve.ts).
  if (defaultTenantOf(loadValidTenants(tenantsDir), defaultId)?.id === id) {
    return {
      refused: `${id} is the default brand (served on localhost and on every host no brand names): make another brand the default first ("default": true in its tenant.json, or DEFAULT_TENANT), then remove ${id}`,
    };
  }
  const deletes = [`tenants/${id}/ (its tenant file, landers and assets)`];
  if (lstatSync(join(distDir, id), { throwIfNoEntry: false }) || existsSync(versionsOf(distDir, id))) deletes.push(`dist/${id} and dist/_outputs/${id}/ (its rendered pages)`);
  return { deletes };
}

/** Deletes the brand's folder, then its output (a runtime stops serving it as soon as it sees the folder gone). */
export function removeBrand(tenantsDir: string, distDir: string, id: string): void {
  rmSync(join(tenantsDir, id), { recursive: true, force: true });
  removeOutput(distDir, id);
}
