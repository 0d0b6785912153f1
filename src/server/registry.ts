import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { listTenantIds, loadTenant, TenantError } from '../tenant/load.ts';
import type { Tenant } from '../tenant/schema.ts';

export type AstroHandler = (req: IncomingMessage, res: ServerResponse, next: () => void, locals: object) => Promise<void>;

interface Built {
  handler: AstroHandler;
  /** When the entry's mtime was last looked at (a rebuild is noticed within RESCAN_MS). */
  checkedAt: number;
  /** mtime of the build's entry, to notice a rebuild. */
  stamp: number;
}

/** How often the registry looks at the disk for new or changed tenants and builds. */
const RESCAN_MS = 1000;

/**
 * The tenants this process serves and their Astro builds. It looks at tenants/ and dist/ again at
 * most once a second, so a tenant created and built by `sitegen new` while the runtime runs is
 * served on the next request, without touching the others.
 */
export class TenantRegistry {
  readonly tenantsDir: string;
  readonly distDir: string;
  #tenants: Tenant[] = [];
  #stamps = new Map<string, number>();
  #built = new Map<string, Built>();
  #loading = new Map<string, Promise<Built | undefined>>();
  #scannedAt = 0;
  #onError: (message: string) => void;

  constructor(options: { tenantsDir: string; distDir: string; onError?: (message: string) => void }) {
    this.tenantsDir = options.tenantsDir;
    this.distDir = options.distDir;
    this.#onError = options.onError ?? ((m) => console.error(m));
    this.rescan(true);
  }

  /** Every valid tenant, in id order. A tenant file that fails validation is reported and skipped. */
  tenants(): Tenant[] {
    this.rescan();
    return this.#tenants;
  }

  rescan(force = false): void {
    const now = Date.now();
    if (!force && now - this.#scannedAt < RESCAN_MS) return;
    this.#scannedAt = now;
    const next: Tenant[] = [];
    for (const id of listTenantIds(this.tenantsDir)) {
      const file = join(this.tenantsDir, id, 'tenant.json');
      const stamp = statSync(file).mtimeMs;
      const known = this.#tenants.find((t) => t.id === id);
      if (known && this.#stamps.get(id) === stamp) {
        next.push(known);
        continue;
      }
      try {
        next.push(loadTenant(id, this.tenantsDir));
        this.#stamps.set(id, stamp);
      } catch (error) {
        if (error instanceof TenantError) this.#onError(error.message);
        else throw error;
      }
    }
    this.#tenants = next;
  }

  clientDir(id: string): string {
    return join(this.distDir, id, 'client');
  }

  isBuilt(id: string): boolean {
    return existsSync(join(this.distDir, id, 'server', 'entry.mjs'));
  }

  /** The Astro handler of a tenant's build, imported anew when the build changed; undefined when not built. */
  async handler(id: string): Promise<AstroHandler | undefined> {
    const built = this.#built.get(id);
    // A page request costs no file-system call: the build is looked at again at most once a second.
    const now = Date.now();
    if (built && now - built.checkedAt < RESCAN_MS) return built.handler;
    const entry = join(this.distDir, id, 'server', 'entry.mjs');
    if (!existsSync(entry)) return undefined;
    const stamp = statSync(entry).mtimeMs;
    if (built && built.stamp === stamp) {
      built.checkedAt = now;
      return built.handler;
    }
    let loading = this.#loading.get(id);
    if (!loading) {
      loading = import(`${pathToFileURL(entry).href}?v=${stamp}`).then(
        (mod: { handler: AstroHandler }) => {
          const fresh = { handler: mod.handler, stamp, checkedAt: Date.now() };
          this.#built.set(id, fresh);
          return fresh;
        },
      ).finally(() => this.#loading.delete(id));
      this.#loading.set(id, loading);
    }
    return (await loading)?.handler;
  }
}
