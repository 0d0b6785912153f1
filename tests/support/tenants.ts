import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TENANTS_DIR } from './runtime.ts';

/**
 * A temporary copy of the shipped tenants (with tenants/_defaults) whose tenant.json files are
 * changed: each brand's top-level keys replaced by those given. `remove()` deletes the copy.
 */
export function tenantsWith(changes: Record<string, Record<string, unknown>>): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'sitegen-tenants-'));
  cpSync(TENANTS_DIR, dir, { recursive: true });
  for (const [id, change] of Object.entries(changes)) {
    const file = join(dir, id, 'tenant.json');
    writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), ...change }, null, 2));
  }
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
