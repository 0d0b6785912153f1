/**
 * GET /api/packages.php (docs/API.md "Payments"): the bundles and methods a member may buy,
 * priced for their payment country, exactly as the /credits page offers them.
 */
import { describe, expect, test } from 'vitest';
import { engines } from '../support/runtime.ts';
import { activeMember, useRuntime, type Client } from '../support/accounts.ts';

/** Astro's serialised island props: [0, value] a plain value (objects' fields serialised again), [1, [...]] an array. */
function revive(value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  const [type, inner] = value as [number, unknown];
  if (type === 1) return (inner as unknown[]).map(revive);
  if (inner && typeof inner === 'object') return Object.fromEntries(Object.entries(inner).map(([k, v]) => [k, revive(v)]));
  return inner;
}

const unescape = (text: string) => text.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

/** The props the /credits page hands its BuyCredits island: what the member is shown. */
async function creditsPage(client: Client): Promise<{ packages: unknown; methods: unknown; country: unknown }> {
  const page = await client.get('/credits');
  expect(page.status).toBe(200);
  const island = [...page.text.matchAll(/<astro-island\b[^>]*>/g)].map((m) => m[0]).find((tag) => tag.includes('BuyCredits'));
  expect(island).toBeDefined();
  const props = Object.fromEntries(Object.entries(JSON.parse(unescape(/\sprops="([^"]*)"/.exec(island!)![1]!)) as Record<string, unknown>).map(([k, v]) => [k, revive(v)]));
  return { packages: props.packages, methods: props.methods, country: props.country };
}

describe.each(engines())('packages.php on %s', (engine) => {
  const rt = useRuntime(engine);

  test('a member in GB on velvet gets the pound prices and methods the credits page shows', async () => {
    const { client } = await activeMember(rt(), 'velvet', { country: 'GB', region: null, city: 'London' });
    const res = await client.get('/api/packages.php');
    expect(res.status).toBe(200);
    const answer = res.json();
    expect(answer.country).toBe('GB');
    expect(answer.packages.map((p: { currency: string }) => p.currency)).toEqual(['GBP', 'GBP', 'GBP']);
    expect(answer.packages[0]).toMatchObject({ id: 'taste', credits: 40, amount: 1099 });
    expect(answer).toEqual(await creditsPage(client));
  });

  test('a member in NL on velvet gets the euro prices and the Dutch methods the credits page shows', async () => {
    const { client } = await activeMember(rt(), 'velvet', { country: 'GB', region: null, city: 'London' });
    const user = await client.user();
    // Velvet takes no signups from NL: the member's profile says NL (moved, or an older brand setting).
    await rt().db.db.updateTable('profiles').set({ country: 'NL' }).where('id', '=', user.profile.id).execute();
    const answer = (await client.get('/api/packages.php')).json();
    expect(answer.country).toBe('NL');
    expect(answer.packages.map((p: { currency: string; amount: number }) => [p.currency, p.amount])).toEqual([
      ['EUR', 1299],
      ['EUR', 2999],
      ['EUR', 6499],
    ]);
    expect(answer).toEqual(await creditsPage(client));
  });

  test('a visitor is refused (401): the bundles are the member\'s', async () => {
    const { client } = await activeMember(rt(), 'velvet', { country: 'GB', region: null, city: 'London' });
    await client.post('/api/logout.php');
    expect((await client.get('/api/packages.php')).status).toBe(401);
  });
});
