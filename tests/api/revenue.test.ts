/**
 * Revenue figures in the console (issue 23, docs/API.md "Revenue"), on every engine: purchases
 * through Mollie's stand-in (first and repeat), a partial refund and a chargeback, members who
 * sign up, activate and buy or not, credits spent; every figure of GET /api/console/revenue per
 * day, week and month and its CSV, EUR only where asked, bad filters refused, and brand scopes.
 */
import { afterAll, describe, expect, test } from 'vitest';
import { engines, hostFetch, type TestRuntime } from '../support/runtime.ts';
import { tenantsWith } from '../support/tenants.ts';
import { activeMember, signUp, useRuntime } from '../support/accounts.ts';
import { useMollieStandIn } from '../support/mollie-stand-in.ts';
import { staffLogin } from '../support/console.ts';
import { spend } from '../../src/server/ledger.ts';
import { splitVat, vatFor } from '../../src/lib/vat.ts';
import type { RevenueView } from '../../src/contract/revenue.ts';
import { RevenueQuery } from '../../src/contract/console.ts';
import { createRevenueService } from '../../src/server/services/revenue.ts';

const KEY_ENV = 'MOLLIE_KEY_SPETTER_REVENUE';
const mollie = useMollieStandIn(KEY_ENV);
const tenants = tenantsWith({ spetter: { payments: { provider: 'mollie', mollie_api_key_env: KEY_ENV } } });
afterAll(() => tenants.remove());

const today = () => new Date().toISOString().slice(0, 10);
const monday = (day: string) => {
  const t = Date.parse(`${day}T00:00:00Z`);
  return new Date(t - ((new Date(t).getUTCDay() + 6) % 7) * 86_400_000).toISOString().slice(0, 10);
};

const webhook = (rt: TestRuntime, id: string) =>
  hostFetch(rt, 'spetter', '/api/payment-webhook.php', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `id=${encodeURIComponent(id)}` });

/** A member buys the starter bundle (14.99 EUR, 50 credits) at Mollie; answers Mollie's payment id. */
async function buyStarter(rt: TestRuntime, client: Awaited<ReturnType<typeof activeMember>>['client']): Promise<string> {
  const started = await client.post('/api/payment.php', { package_id: 'starter', method: 'ideal' });
  expect(started.status).toBe(200);
  const id = (started.json().checkout_url as string).split('/').pop()!;
  mollie().setStatus(id, 'paid');
  expect((await webhook(rt, id)).status).toBe(200);
  return id;
}

/** Every number of a row, as a flat record (`refunds.count` …), for differences. */
function numbers(row: object | undefined, prefix = ''): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(row ?? {})) {
    if (typeof v === 'number') out[prefix + k] = v;
    else if (v && typeof v === 'object') Object.assign(out, numbers(v, `${prefix}${k}.`));
  }
  return out;
}
const minus = (after: Record<string, number>, before: Record<string, number>) => Object.fromEntries(Object.entries(after).map(([k, v]) => [k, v - (before[k] ?? 0)]));

describe.each(engines())('revenue on %s', (engine) => {
  const rt = useRuntime(engine, () => ({ tenantsDir: tenants.dir, config: { eurRates: { GBP: 1.17 } } }));

  /** spetter's EUR row and members row of the period holding today. */
  async function figures(client: Awaited<ReturnType<typeof staffLogin>>['client'], group: 'day' | 'week' | 'month') {
    const res = await client.get(`/api/console/revenue?brand=spetter&from=${today()}&to=${today()}&group=${group}`);
    expect(res.status, res.text).toBe(200);
    const view = res.json() as RevenueView;
    const period = group === 'day' ? today() : group === 'week' ? monday(today()) : today().slice(0, 7);
    expect(view.periods).toEqual([period]);
    return {
      view,
      money: view.money.find((r) => r.currency === 'EUR' && r.period === period),
      members: view.members.find((r) => r.period === period)!,
    };
  }

  test('a finance user reads every figure of first and repeat purchases, a refund and a chargeback, per day, week and month, and as CSV', async () => {
    const { client: finance } = await staffLogin(rt(), 'finance');
    const before = { day: await figures(finance, 'day'), week: await figures(finance, 'week'), month: await figures(finance, 'month') };

    // A buys twice (first, then repeat) and spends 20 credits; B buys and gets half back; C buys and charges back; D is active and buys nothing; E never activates.
    const a = await activeMember(rt(), 'spetter', { tracking: { network: 'adnet', ref: 'r1' } });
    const b = await activeMember(rt(), 'spetter');
    const c = await activeMember(rt(), 'spetter');
    await activeMember(rt(), 'spetter');
    await signUp(rt(), 'spetter');
    await buyStarter(rt(), a.client);
    await buyStarter(rt(), a.client);
    const aId = (await a.client.user()).id as number;
    await spend(rt().db.db, { userId: aId, credits: 20, reason: 'message', ref: `revenue-${aId}` });
    const bPaid = await buyStarter(rt(), b.client);
    mollie().giveBack(bPaid, { refunded: 750 });
    await webhook(rt(), bPaid);
    await webhook(rt(), bPaid); // replayed: recorded once
    const cPaid = await buyStarter(rt(), c.client);
    mollie().giveBack(cPaid, { chargedBack: 1499 });
    await webhook(rt(), cPaid);

    const vat = vatFor(rt().services.tenants().find((t) => t.id === 'spetter')!.company.vat_numbers, 'NL')!;
    const net = splitVat(1499, vat.rate).net;
    for (const group of ['day', 'week', 'month'] as const) {
      const after = await figures(finance, group);
      expect(minus(numbers(after.money), numbers(before[group].money)), group).toEqual({
        purchases: 4,
        gross: 4 * 1499,
        net: 4 * net,
        first_purchases: 3,
        repeat_purchases: 1,
        'refunds.count': 1,
        'refunds.amount': 750,
        'chargebacks.count': 1,
        'chargebacks.amount': 1499,
        net_revenue: 4 * 1499 - 750 - 1499,
        paying_members: 3,
        // ARPPU and the dispute rate are ratios of the period's totals (checked below).
        arppu: (after.money!.arppu ?? 0) - (before[group].money?.arppu ?? 0),
        dispute_rate: (after.money!.dispute_rate ?? 0) - (before[group].money?.dispute_rate ?? 0),
      });
      const m = after.money!;
      expect(m.arppu).toBe(Math.round(m.net_revenue / m.paying_members));
      expect(m.dispute_rate).toBe(m.chargebacks.count / m.purchases);
      expect(m.dispute_flag).toBe(true); // far above 0.9%
      expect(m.eur).toBeUndefined();
      expect(minus(numbers(after.members), numbers(before[group].members)), group).toEqual({
        signups: 5,
        activations: 4,
        converted: 3,
        conversion: (after.members.conversion ?? 0) - (before[group].members.conversion ?? 0),
        first_purchases: 3,
        paying_members: 3,
        'credits.sold': 4 * 50,
        'credits.spent': 20,
        // Half of B's 50 credits, all of C's.
        'credits.taken_back': 25 + 50,
      });
      expect(after.members.conversion).toBe(after.members.converted / after.members.activations);
      expect(after.view.disputes).toEqual([{ brand: 'spetter', purchases: m.purchases, chargebacks: m.chargebacks.count, rate: m.dispute_rate, flagged: true }]);
    }

    // The same figures as CSV, amounts in euros.
    const day = await figures(finance, 'day');
    const money = await finance.get(`/api/console/revenue?brand=spetter&from=${today()}&to=${today()}&format=csv`);
    expect(money.status).toBe(200);
    expect(money.headers['content-type']).toMatch(/^text\/csv/);
    expect(money.headers['content-disposition']).toContain(`revenue-money-${today()}-${today()}-day.csv`);
    const rows = csvRows(money.text);
    expect(rows[0]).toEqual(['brand', 'period', 'currency', 'purchases', 'gross', 'net_of_vat', 'first_purchases', 'repeat_purchases', 'refunds', 'refunds_amount', 'chargebacks', 'chargebacks_amount', 'net_revenue', 'paying_members', 'arppu', 'dispute_rate', 'dispute_flag']);
    const m = day.money!;
    const euros = (cents: number) => (cents / 100).toFixed(2);
    expect(rows.find((r) => r[0] === 'spetter' && r[1] === today() && r[2] === 'EUR')).toEqual([
      'spetter', today(), 'EUR', String(m.purchases), euros(m.gross), euros(m.net), String(m.first_purchases), String(m.repeat_purchases), String(m.refunds.count), euros(m.refunds.amount),
      String(m.chargebacks.count), euros(m.chargebacks.amount), euros(m.net_revenue), String(m.paying_members), euros(m.arppu!), m.dispute_rate!.toFixed(4), 'yes',
    ]);
    const members = csvRows((await finance.get(`/api/console/revenue?brand=spetter&from=${today()}&to=${today()}&format=csv&table=members`)).text);
    expect(members[0]).toEqual(['brand', 'period', 'signups', 'activations', 'converted', 'conversion', 'first_purchases', 'paying_members', 'credits_sold', 'credits_spent', 'credits_taken_back']);
    const r = day.members;
    expect(members.slice(1)).toEqual([['spetter', today(), ...[r.signups, r.activations, r.converted].map(String), r.conversion!.toFixed(4), ...[r.first_purchases, r.paying_members, r.credits.sold, r.credits.spent, r.credits.taken_back].map(String)]]);
  });

  test('an ended day is summed once into revenue_days, with the same figures as summed from the records', async () => {
    const { client } = await staffLogin(rt(), 'owner');
    // The same database two days on: today has ended, and its sums are kept on first use.
    const later = createRevenueService({ db: rt().db.db, tenants: rt().services.tenants, now: () => new Date(Date.now() + 2 * 86_400_000) });
    const owner = { id: 0, email: 'owner@example.com', role: 'owner' as const, brands: null };
    for (const group of ['day', 'week', 'month'] as const) {
      const live = (await client.get(`/api/console/revenue?from=${today()}&to=${today()}&group=${group}`)).json() as RevenueView;
      expect(live.money.length, group).toBeGreaterThan(0);
      const kept = await later.revenue(owner, RevenueQuery.parse({ from: today(), to: today(), group }));
      expect(kept, group).toEqual(live);
    }
    expect(await rt().db.db.selectFrom('revenue_days_done').selectAll().where('day', '=', today()).execute()).toEqual([{ day: today() }]);
    const rows = await rt().db.db.selectFrom('revenue_days').selectAll().where('day', '=', today()).where('tenant_id', '=', 'spetter').where('measure', '=', 'paid').execute();
    expect(rows.map((r) => r.key)).toEqual(['EUR']);
  });

  test('EUR only where asked: each currency at its configured rate, named; a currency without a rate says so', async () => {
    // velvet takes pounds in GB and francs in CH (its 'taste' bundle: 10.99 GBP, 12.99 CHF), through the test provider.
    for (const country of ['GB', 'CH']) {
      const member = await activeMember(rt(), 'velvet', { country, region: null, city: null });
      const started = await member.client.post('/api/payment.php', { package_id: 'taste', method: 'creditcard' });
      expect(started.status, started.text).toBe(200);
      const id = new URL(started.json().checkout_url, 'http://x').searchParams.get('id')!;
      await rt().services.testProvider.decide(id, 'paid');
      await hostFetch(rt(), 'velvet', '/api/payment-webhook.php', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `id=${id}` });
    }
    const { client } = await staffLogin(rt(), 'owner');
    const plain = (await client.get(`/api/console/revenue?from=${today()}&to=${today()}`)).json() as RevenueView;
    expect(plain.eur_rates).toBeNull();
    const view = (await client.get(`/api/console/revenue?from=${today()}&to=${today()}&eur=1`)).json() as RevenueView;
    expect(view.eur_rates).toEqual({ EUR: 1, GBP: 1.17 });
    const row = view.money.find((x) => x.brand === 'spetter')!;
    expect(row.eur).toEqual({ rate: 1, gross: row.gross, net: row.net, refunds: row.refunds.amount, chargebacks: row.chargebacks.amount, net_revenue: row.net_revenue });
    const pounds = view.money.find((x) => x.brand === 'velvet' && x.currency === 'GBP')!;
    expect(pounds).toMatchObject({ purchases: 1, gross: 1099, eur: { rate: 1.17, gross: Math.round(1099 * 1.17), net_revenue: Math.round(1099 * 1.17) } });
    const francs = view.money.find((x) => x.brand === 'velvet' && x.currency === 'CHF')!;
    expect(francs).toMatchObject({ purchases: 1, gross: 1299, eur: null });
    // The plain answer has the same rows without EUR.
    expect(plain.money.find((x) => x.brand === 'velvet' && x.currency === 'GBP')).toMatchObject({ gross: 1099 });
    expect(plain.money.every((x) => x.eur === undefined)).toBe(true);
    // Rows are per currency and never summed across them.
    expect(new Set(view.money.map((x) => `${x.brand}|${x.period}|${x.currency}`)).size).toBe(view.money.length);
    const csv = csvRows((await client.get(`/api/console/revenue?from=${today()}&to=${today()}&eur=1&format=csv`)).text);
    expect(csv[0]!.slice(-3)).toEqual(['eur_rate', 'gross_eur', 'net_revenue_eur']);
  });

  test('bad filters are refused with a message naming the field, never a 500', async () => {
    const { client } = await staffLogin(rt(), 'finance');
    const cases: [string, string][] = [
      ['from=2026-02-30', 'from'],
      ['from=2026-11-10&to=2026-11-01', 'to'],
      ['from=2020-01-01&to=2026-01-01', 'to'],
      ['group=year', 'group'],
      ['format=xml', 'format'],
      ['table=secrets', 'table'],
      ['eur=yes', 'eur'],
      ['brand=NOT%20A%20BRAND', 'brand'],
      ['from=26-11-2026', 'from'],
    ];
    for (const [query, field] of cases) {
      const res = await client.get(`/api/console/revenue?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.json().error, query).toMatchObject({ code: 'invalid_input', field });
      expect(res.json().error.message.length, query).toBeGreaterThan(5);
    }
    // A moderator or support agent sees no money (403, audited by the router).
    for (const role of ['moderator', 'support'] as const) expect((await (await staffLogin(rt(), role)).client.get('/api/console/revenue')).status).toBe(403);
  });

  test('a staff member limited to one brand sees no other brand\'s figures or postbacks, in JSON or CSV', async () => {
    // Something to see on both brands: a member of each.
    await activeMember(rt(), 'velvet', { country: 'GB', region: null, city: null });
    await activeMember(rt(), 'spetter');
    const { client } = await staffLogin(rt(), 'finance', ['velvet']);
    const all = (await client.get(`/api/console/revenue?from=${today()}&to=${today()}`)).json() as RevenueView;
    expect(all.brands).toEqual(['velvet']);
    const brandsOf = (rows: { brand: string }[]) => [...new Set(rows.map((x) => x.brand))];
    expect(brandsOf(all.members)).toEqual(['velvet']);
    expect(brandsOf(all.money).filter((b) => b !== 'velvet')).toEqual([]);
    expect(all.disputes.map((d) => d.brand)).toEqual(['velvet']);
    for (const table of ['money', 'members']) {
      const csv = await client.get(`/api/console/revenue?from=${today()}&to=${today()}&format=csv&table=${table}`);
      expect(csv.status).toBe(200);
      expect(csv.text).not.toContain('spetter');
    }
    expect((await client.get('/api/console/revenue?brand=spetter')).status).toBe(404);
    expect((await client.get('/api/console/revenue?brand=spetter&format=csv')).status).toBe(404);
    const postbacks = await client.get('/api/console/postbacks');
    expect(postbacks.json().config.map((c: { brand: string }) => c.brand)).toEqual(['velvet']);
    expect(postbacks.text).not.toContain('spetter');
    expect((await client.get('/api/console/postbacks?format=csv')).text).not.toContain('spetter');
    expect((await client.get('/api/console/postbacks?brand=spetter')).status).toBe(404);
  });
});

/** The rows of a CSV answer (no quoted commas in these tables), without the byte-order mark. */
function csvRows(text: string): string[][] {
  return text.replace(/^\uFEFF/, '').trimEnd().split('\r\n').map((line) => line.split(','));
}
