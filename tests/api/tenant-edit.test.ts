/**
 * A brand's tenant.json edited into an invalid one while the runtime serves it (found by the review
 * of issues 24 and 25): the runtime reads a brand's tenant.json again when it changes (the
 * documented way to edit a brand, or to take it out of a pool). An edit that fails validation (here
 * an audience wider than the niche's, which `sitegen check` refuses) is logged and NOT applied: the
 * brand stays served as its last valid file said. Before, it was skipped: its domain answered as the
 * default brand (spetter), its members dropped out of the pool's search and their conversations
 * closed, so one mistyped edit took a live brand down.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { engines, hostFetch } from '../support/runtime.ts';
import { useRuntime } from '../support/accounts.ts';
import { tenantsWith } from '../support/tenants.ts';

describe.each(engines())('a tenant file edited into an invalid one on %s', (engine) => {
  const tenants = tenantsWith({});
  afterAll(() => tenants.remove());
  const rt = useRuntime(engine, () => ({ seed: false, tenantsDir: tenants.dir }));

  test('the brand stays served as it was, not replaced by the default brand', async () => {
    const name = async () => (await hostFetch(rt(), 'rijpedates', '/api/settings.php')).json().settings.name as string;
    expect(await name()).toBe('Rijpe Dates');

    const file = join(tenants.dir, 'rijpedates', 'tenant.json');
    // Niche 6's audience is women of 35 and older: a brand may only narrow it.
    writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), audience: { min_age: 30 } }, null, 2));
    // The registry looks at the tenant files again at most once a second.
    await new Promise((r) => setTimeout(r, 1_100));

    // Today: "Spetter" (the brand is dropped and its host falls to the default brand).
    expect(await name()).toBe('Rijpe Dates');
  });
});
