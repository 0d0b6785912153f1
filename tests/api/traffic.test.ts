/**
 * Traffic attribution and lander experiments (issue 23, docs/API.md "Traffic sources"), on every
 * engine: visits from two networks and one without, kept in the first visit's cookie (bounded,
 * never reflected), signups, activations, purchases, a refund and a chargeback (Mollie's
 * stand-in), every figure of the sources and experiments tables and their CSV, the brand scope of
 * a staff member, and a variant ended from the console that no visitor is sent to any more.
 */
import { describe, expect, test } from 'vitest';
import { engines, hostFetch, type TestRuntime } from '../support/runtime.ts';
import { Client, activeMember, apiError, setCookies, signUp, useRuntime } from '../support/accounts.ts';
import { staffLogin } from '../support/console.ts';
import { useMollieBrand } from '../support/mollie-stand-in.ts';
import { readAttribution } from '../../src/lib/attribution.ts';
import { twoProportionTest, wilsonInterval } from '../../src/lib/stats.ts';

const BRAND = 'spetter';
const LANDER = '/landers/alonetonight';
const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
/** The headline of each variant of spetter's alonetonight lander (tenants/spetter/landers/). */
const HEADLINES: Record<string, string> = { control: 'Vanavond niet alleen?', direct: 'Vanavond afspreken?' };

const { tenantsDir, mollie } = useMollieBrand(BRAND);

/** A browser's visit of the lander: the page, and the variant its cookie says it is on. */
async function land(client: Client, query = '') {
  const res = await client.get(`${LANDER}${query}`, { 'user-agent': CHROME });
  expect(res.status).toBe(200);
  const variant = readAttribution(client.jar.get('src'))?.landing?.variant;
  expect(res.text, `variant ${variant}`).toContain(HEADLINES[variant!]!.replace("'", '&#39;'));
  return { res, variant: variant! };
}

/** A purchase of the starter bundle paid at Mollie, its webhook called; answers Mollie's id. */
async function buy(rt: TestRuntime, client: Client): Promise<string> {
  const { checkout_url } = (await client.post('/api/payment.php', { package_id: 'starter', method: 'ideal' })).json();
  const id = checkout_url.split('/').pop()!;
  mollie().setStatus(id, 'paid');
  await webhook(rt, id);
  return id;
}
const webhook = (rt: TestRuntime, id: string) =>
  hostFetch(rt, BRAND, '/api/payment-webhook.php', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `id=${encodeURIComponent(id)}` });

describe.each(engines())('traffic sources and lander experiments on %s', (engine) => {
  const rt = useRuntime(engine, () => ({ tenantsDir }));
  /** What the tests did, per variant: the figures the experiments table must show. */
  const byVariant: Record<string, { visits: number; signups: number; activations: number; first_purchases: number; revenue: number }> = {};
  const tally = (variant: string, add: Partial<(typeof byVariant)[string]>) => {
    const row = (byVariant[variant] ??= { visits: 0, signups: 0, activations: 0, first_purchases: 0, revenue: 0 });
    for (const [k, v] of Object.entries(add)) row[k as keyof typeof row] += v;
  };
  let organicVisits = 0;

  test('the first visit\'s parameters go into a bounded HttpOnly cookie once the visitor accepts, never into the page; a later visit changes nothing; a bot gets the control and no cookie', async () => {
    const v1 = new Client(rt(), BRAND);
    const first = await land(v1, `?network=adnet&ref=r1&clickid=ck-123&sub1=${'a'.repeat(5000)}&sub2=%01ctrl&sub3=${encodeURIComponent('"><script>x</script>')}`);
    tally(first.variant, { visits: 1 });
    // Before the visitor's choice only the variant's seed and landing are kept (docs/API.md "Consent").
    expect(readAttribution(setCookies(first.res).find((c) => c.name === 'src')!.value)).toMatchObject({ tracking: {}, landing: { lander: 'alonetonight', variant: first.variant } });
    // Accepting on the consent bar: the page sends the address's parameters; only valid ones are kept.
    const accepted = await v1.post('/api/consent.php', { choice: 'accept', tracking: { network: 'adnet', ref: 'r1', clickid: 'ck-123', sub3: '"><script>x</script>' } });
    expect(accepted.status).toBe(200);
    const cookie = setCookies(accepted).find((c) => c.name === 'src')!;
    expect(cookie.attributes).toMatchObject({ httponly: true, samesite: 'Lax', path: '/', 'max-age': String(30 * 86_400) });
    expect(readAttribution(cookie.value)).toMatchObject({ tracking: { network: 'adnet', ref: 'r1', clickid: 'ck-123' }, landing: { lander: 'alonetonight', niche: 1, locale: 'nl', variant: first.variant } });
    expect(cookie.value).not.toMatch(/sub1|sub2|sub3/);
    for (const text of ['adnet', 'ck-123', '<script>x', 'aaaaaaaaaa']) expect(first.res.text).not.toContain(text);
    expect(first.res.headers['cache-control']).toBe('private, no-cache');
    // The same visitor again, from another network: the same variant, the first network kept, no new cookie.
    const again = await land(v1, '?network=other&ref=r9');
    tally(again.variant, { visits: 1 });
    expect(again.variant).toBe(first.variant);
    expect(setCookies(again.res).find((c) => c.name === 'src')).toBeUndefined();
    expect(readAttribution(v1.jar.get('src'))!.tracking).toEqual({ network: 'adnet', ref: 'r1', clickid: 'ck-123' });
    // Its signup stores the cookie's parameters and lander, before those the page sends.
    const member = await activeMember(rt(), BRAND, { tracking: { network: 'bodynet', ref: 'x' } }, v1);
    tally(first.variant, { signups: 1, activations: 1 });
    const row = await rt().db.db.selectFrom('users').select(['tracking', 'lander', 'lander_variant', 'lander_niche', 'lander_locale']).where('email', '=', member.email).executeTakeFirstOrThrow();
    expect({ ...row, tracking: JSON.parse(row.tracking!) }).toEqual({ tracking: { network: 'adnet', ref: 'r1', clickid: 'ck-123' }, lander: 'alonetonight', lander_variant: first.variant, lander_niche: 1, lander_locale: 'nl' });
    // Two purchases (a first and a further one), the first half refunded.
    const paid = await buy(rt(), v1);
    await buy(rt(), v1);
    tally(first.variant, { first_purchases: 1, revenue: 2 * 1499 });
    mollie().giveBack(paid, { refunded: 750 });
    await webhook(rt(), paid);
    await webhook(rt(), paid); // the same refund reported twice counts once

    // Another visitor of the first network, who only looks.
    const v1b = new Client(rt(), BRAND);
    tally((await land(v1b, '?network=adnet&ref=r1')).variant, { visits: 1 });

    // The second network: one visit, a signup, a purchase charged back by the bank.
    const v2 = new Client(rt(), BRAND);
    const second = await land(v2, '?network=net2&ref=r2');
    tally(second.variant, { visits: 1, signups: 1, activations: 1, first_purchases: 1, revenue: 1499 });
    // It refuses the cookie: the lander's link to the signup carries the parameters, the signup sends them.
    expect((await v2.post('/api/consent.php', { choice: 'refuse' })).status).toBe(200);
    expect(readAttribution(v2.jar.get('src'))!.tracking).toEqual({});
    await activeMember(rt(), BRAND, { tracking: { network: 'net2', ref: 'r2' } }, v2);
    const disputed = await buy(rt(), v2);
    mollie().giveBack(disputed, { chargedBack: 1499 });
    await webhook(rt(), disputed);

    // Visitors without a network until both variants have had one; the first signs up (never activates).
    const seen = new Set([first.variant, second.variant]);
    for (let i = 0; i < 40 && (i === 0 || seen.size < 2); i++) {
      const v = new Client(rt(), BRAND);
      const visit = await land(v);
      organicVisits++;
      seen.add(visit.variant);
      tally(visit.variant, { visits: 1 });
      if (i === 0) {
        await signUp(rt(), BRAND, {}, v);
        tally(visit.variant, { signups: 1 });
      }
    }
    expect(seen).toEqual(new Set(['control', 'direct']));

    // A crawler: the control page, no cookie, not counted.
    const bot = await hostFetch(rt(), BRAND, LANDER, { headers: { 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' } });
    expect(bot.status).toBe(200);
    expect(bot.text).toContain('Vanavond niet alleen?');
    expect(setCookies(bot).find((c) => c.name === 'src')).toBeUndefined();
  });

  test('the sources table: every figure per network and ref, money per currency; its CSV says the same', async () => {
    const { client } = await staffLogin(rt(), 'marketer', [BRAND]);
    const res = await client.get(`/api/console/sources?brand=${BRAND}`);
    expect(res.status).toBe(200);
    const { sources, brands, from, to } = res.json();
    expect(brands).toEqual([BRAND]);
    expect(from < to).toBe(true);
    const of = (network: string) => sources.find((s: { network: string }) => s.network === network);
    expect(sources).toHaveLength(3);
    expect(of('adnet')).toEqual({
      network: 'adnet', ref: 'r1', visits: 3, signups: 1, activations: 1, activation_rate: 1, first_purchases: 1, repeat_purchases: 1, refunds: 1, chargebacks: 0,
      money: [{ currency: 'EUR', revenue: 2998, refunded: 750, charged_back: 0, net: 2248, net_per_signup: 2248 }],
    });
    expect(of('net2')).toEqual({
      network: 'net2', ref: 'r2', visits: 1, signups: 1, activations: 1, activation_rate: 1, first_purchases: 1, repeat_purchases: 0, refunds: 0, chargebacks: 1,
      money: [{ currency: 'EUR', revenue: 1499, refunded: 0, charged_back: 1499, net: 0, net_per_signup: 0 }],
    });
    expect(of('')).toEqual({ network: '', ref: '', visits: organicVisits, signups: 1, activations: 0, activation_rate: 0, first_purchases: 0, repeat_purchases: 0, refunds: 0, chargebacks: 0, money: [] });

    const csv = await client.get(`/api/console/sources?brand=${BRAND}&format=csv`);
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    const lines = csv.text.replace(/^\uFEFF/, '').trimEnd().split('\r\n');
    expect(lines[0]).toBe('network,ref,visits,signups,activations,activation rate,first purchases,further purchases,refunds,chargebacks,revenue EUR,refunded EUR,charged back EUR,net revenue EUR,net revenue per signup EUR');
    expect(lines).toContain('adnet,r1,3,1,1,1,1,1,1,0,29.98,7.50,0.00,22.48,22.48');
    expect(lines).toContain('net2,r2,1,1,1,1,1,0,0,1,14.99,0.00,14.99,0.00,0.00');
    expect(lines).toContain(`,,${organicVisits},1,0,0,0,0,0,0,0.00,0.00,0.00,0.00,`);
    expect(lines).toHaveLength(4);

    // A day range without the visits: nothing; a range the wrong way round: 400 with its message.
    expect((await client.get(`/api/console/sources?brand=${BRAND}&from=2020-01-01&to=2020-01-31`)).json().sources).toEqual([]);
    const backwards = await client.get(`/api/console/sources?brand=${BRAND}&from=2026-02-01&to=2026-01-01`);
    expect([backwards.status, apiError(backwards).field]).toEqual([400, 'from']);
    expect((await client.get(`/api/console/sources?brand=${BRAND}&from=2026-13-45`)).status).toBe(400);
  });

  test('the experiments table: per variant the funnel, each step\'s conversion with its Wilson interval and its z-test against the control; and its CSV', async () => {
    const { client } = await staffLogin(rt(), 'marketer', [BRAND]);
    const res = await client.get(`/api/console/experiments?brand=${BRAND}`);
    expect(res.status).toBe(200);
    const body = res.json();
    expect(body.method).toMatch(/Wilson score interval \(95%\).*two-proportion z-test/);
    const experiment = body.experiments.find((e: { lander: string; niche: number }) => e.lander === 'alonetonight' && e.niche === 1);
    expect(experiment).toMatchObject({ lander: 'alonetonight', niche: 1, locale: 'nl' });
    expect(experiment.variants.map((v: { variant: string }) => v.variant)).toEqual(['control', 'direct']);
    const [control, direct] = experiment.variants;
    for (const v of experiment.variants) {
      const want = byVariant[v.variant]!;
      expect(v, v.variant).toMatchObject({ weight: 1, ended: false, visits: want.visits, signups: want.signups, activations: want.activations, first_purchases: want.first_purchases });
      const steps = { signup: [want.signups, want.visits], activation: [want.activations, want.signups], first_purchase: [want.first_purchases, want.activations] } as const;
      for (const [step, [x, n]] of Object.entries(steps)) {
        const got = v.conversion[step];
        expect(got.rate, `${v.variant} ${step}`).toBe(n ? x / n : null);
        expect(got.interval).toEqual(wilsonInterval(x, n));
        if (v === control) expect(got.versus_control).toBeNull();
      }
    }
    const test = twoProportionTest(control.signups, control.visits, direct.signups, direct.visits);
    expect(direct.conversion.signup.versus_control).toEqual(test ? { ...test, significant: test.p < 0.05 } : null);
    // Revenue per variant, per currency: what was bought (the refund and chargeback are counted apart).
    for (const v of experiment.variants) expect(v.money.map((m: { revenue: number }) => m.revenue).reduce((a: number, b: number) => a + b, 0)).toBe(byVariant[v.variant]!.revenue);

    const csv = await client.get(`/api/console/experiments?brand=${BRAND}&format=csv`);
    const lines = csv.text.replace(/^\uFEFF/, '').trimEnd().split('\r\n');
    expect(lines[0]).toMatch(/^lander,niche,locale,variant,weight,ended,visits,signups,activations,first purchases,signup rate,signup 95% low,signup 95% high,signup p vs control,signup significant,/);
    const controlLine = lines.find((l) => l.startsWith('alonetonight,1,nl,control,'))!;
    const want = byVariant.control!;
    expect(controlLine.split(',').slice(0, 13)).toEqual(['alonetonight', '1', 'nl', 'control', '1', 'false', ...[want.visits, want.signups, want.activations, want.first_purchases].map(String), String(want.signups / want.visits), String(wilsonInterval(want.signups, want.visits)!.low), String(wilsonInterval(want.signups, want.visits)!.high)]);
  });

  test('brand scopes: a staff member of another brand sees none of these numbers, in JSON or CSV; roles without the permission are refused', async () => {
    const other = await staffLogin(rt(), 'marketer', ['velvet']);
    expect((await other.client.get(`/api/console/sources?brand=${BRAND}`)).status).toBe(404);
    expect((await other.client.get(`/api/console/sources?brand=${BRAND}&format=csv`)).status).toBe(404);
    expect((await other.client.get(`/api/console/experiments?brand=${BRAND}`)).status).toBe(404);
    const all = await other.client.get('/api/console/sources');
    expect(all.json().brands).toEqual(['velvet']);
    for (const res of [all, await other.client.get('/api/console/sources?format=csv')]) {
      expect(res.status).toBe(200);
      for (const text of ['adnet', 'net2']) expect(res.text).not.toContain(text);
    }
    expect(all.json().sources).toEqual([]);
    // Finance reads the sources, not the experiments; a moderator neither.
    const finance = await staffLogin(rt(), 'finance', [BRAND]);
    expect((await finance.client.get(`/api/console/sources?brand=${BRAND}`)).json().sources).toHaveLength(3);
    expect((await finance.client.get(`/api/console/experiments?brand=${BRAND}`)).status).toBe(403);
    expect((await (await staffLogin(rt(), 'moderator', [BRAND])).client.get(`/api/console/sources?brand=${BRAND}`)).status).toBe(403);
  });

  test('a variant ended from the console is no longer given, to new visitors nor to those on it; the control cannot be ended; audited', async () => {
    const staff = await staffLogin(rt(), 'marketer', [BRAND]);
    // A visitor on the variant before it ends.
    let onDirect: Client | undefined;
    for (let i = 0; i < 40 && !onDirect; i++) {
      const v = new Client(rt(), BRAND);
      if ((await land(v)).variant === 'direct') onDirect = v;
    }
    expect(onDirect).toBeDefined();

    const control = await staff.client.post(`/api/console/experiments/end?brand=${BRAND}`, { variant: 'control' });
    expect([control.status, apiError(control).code]).toEqual([400, 'experiment_control']);
    expect((await staff.client.post(`/api/console/experiments/end?brand=${BRAND}`, { variant: 'nope' })).status).toBe(404);
    expect((await staff.client.post(`/api/console/experiments/end?brand=${BRAND}`, { variant: 'Direct!' })).status).toBe(400);
    const ended = await staff.client.post(`/api/console/experiments/end?brand=${BRAND}`, { variant: 'direct' });
    expect(ended.status).toBe(200);
    expect(ended.json()).toMatchObject({ variant: 'direct', ended_at: expect.any(String) });
    // Again: the same answer, one audit entry.
    expect((await staff.client.post(`/api/console/experiments/end?brand=${BRAND}`, { variant: 'direct' })).json()).toEqual(ended.json());
    const entries = await rt().db.db.selectFrom('audit_log').selectAll().where('action', '=', 'variant_end').execute();
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ staff_id: staff.id, brand: BRAND, object_type: 'lander_variant', object_id: 'direct' });

    const page = await onDirect!.get(LANDER, { 'user-agent': CHROME });
    expect(page.text).toContain(HEADLINES.control);
    for (let i = 0; i < 8; i++) {
      const res = await new Client(rt(), BRAND).get(LANDER, { 'user-agent': CHROME });
      expect(res.text).toContain(HEADLINES.control);
    }
    const experiment = (await staff.client.get(`/api/console/experiments?brand=${BRAND}`)).json().experiments.find((e: { lander: string; niche: number }) => e.lander === 'alonetonight' && e.niche === 1);
    expect(experiment.variants.map((v: { variant: string; ended: boolean }) => [v.variant, v.ended])).toEqual([['control', false], ['direct', true]]);
  });
});
