/**
 * What a lander visit costs the runtime before its file is sent (issue 23): `traffic.land` (the
 * variant, the visit counted, the attribution cookie) for each kind of visitor, called in this
 * process, the kinds taking turns in rounds so the machine's drift falls on all of them alike.
 * Beside the throughput rows, whose spread on a shared machine is wider than these differences.
 * Used by bench/run.ts (`npm run bench -- landing`).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDb } from '../src/server/db/index.ts';
import { migrateToLatest } from '../src/server/db/migrate.ts';
import { createMemoryBus } from '../src/server/bus.ts';
import { createTrafficService } from '../src/server/services/traffic.ts';
import { readConsent } from '../src/lib/consent.ts';
import { ATTRIBUTION_COOKIE, readAttribution, writeAttribution } from '../src/lib/attribution.ts';
import { readCookie } from '../src/lib/cookies.ts';
import type { Tenant } from '../src/tenant/schema.ts';

/** A lander page of the manifest: spetter's alonetonight runs two variants; tinderswipe has one text. */
const EXPERIMENT = { lander: 'alonetonight', niche: 1, locale: 'nl', experiment: 'alonetonight.nl.md', variants: [{ name: 'control', weight: 1 }, { name: 'direct', weight: 1 }] };
const PLAIN = { lander: 'tinderswipe', niche: 1, locale: 'nl', experiment: 'tinderswipe.nl.md', variants: [{ name: 'control', weight: 1 }] };
const NETWORK = 'network=bench&ref=r1&clickid=c-123';

export async function measureLanding(rounds = 20, perRound = 1000): Promise<{ kind: string; us: number; min: number }[]> {
  const dir = mkdtempSync(join(tmpdir(), 'sitegen-landing-'));
  const handle = createDb({ file: join(dir, 'app.db') });
  try {
    await migrateToLatest(handle.db);
    const tenant = { id: 'spetter', timezone: 'Europe/Amsterdam' } as Tenant;
    const traffic = createTrafficService({ db: handle.db, bus: createMemoryBus(), production: true, tenants: () => [tenant] });
    const returning = writeAttribution({ seed: 'abcdef0123456789abcdef0123456789', tracking: { network: 'bench', ref: 'r1' }, landing: { lander: 'alonetonight', variant: 'control', niche: 1, locale: 'nl' } });
    // The lander's own steps (src/server/http/landers.ts): the two cookies read, the query parsed, land().
    const visit = (page: typeof PLAIN, query: string, cookieHeader: string, counted = true) => {
      const q = new URLSearchParams(query);
      return traffic.land(tenant, page, { cookie: readCookie(cookieHeader, ATTRIBUTION_COOKIE), consent: readConsent(cookieHeader), query: q, counted });
    };
    const kinds: [string, () => Promise<unknown>][] = [
      ['plain lander, crawler (not counted, no cookie)', () => visit(PLAIN, '', '', false)],
      ['plain lander, new visitor (counted, seed cookie)', () => visit(PLAIN, '', '')],
      ['plain lander, new visitor from a network, not asked yet', () => visit(PLAIN, NETWORK, '')],
      ['plain lander, new visitor from a network, accepted', () => visit(PLAIN, NETWORK, 'src_consent=accept')],
      ['plain lander, new visitor from a network, refused', () => visit(PLAIN, NETWORK, 'src_consent=refuse')],
      ['experiment, new visitor (variant, counted)', () => visit(EXPERIMENT, '', '')],
      ['experiment, new visitor from a network, not asked yet', () => visit(EXPERIMENT, NETWORK, '')],
      ['experiment, returning visitor, accepted (cookie read)', () => visit(EXPERIMENT, '', `${ATTRIBUTION_COOKIE}=${encodeURIComponent(returning)}; src_consent=accept`)],
    ];
    if (!readAttribution(returning)) throw new Error('landing bench: the returning cookie does not read back');
    const times = new Map<string, number[]>(kinds.map(([k]) => [k, []]));
    for (let r = 0; r < rounds; r++) {
      for (const [kind, call] of kinds) {
        const started = performance.now();
        for (let i = 0; i < perRound; i++) await call();
        times.get(kind)!.push(((performance.now() - started) / perRound) * 1000);
      }
      await traffic.flush();
    }
    return kinds.map(([kind]) => {
      const t = times.get(kind)!.sort((a, b) => a - b);
      return { kind, us: t[Math.floor(t.length / 2)]!, min: t[0]! };
    });
  } finally {
    await handle.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
