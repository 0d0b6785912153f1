/**
 * Revenue figures stay exact as time passes (issue 23, docs/API.md "Revenue"), on every engine:
 * ended days are kept in revenue_days and paying members in revenue_payers, then a refund and a
 * chargeback arrive days after the purchases, and a member of an old activation cohort buys
 * late. The runtime's clock is moved; every figure is checked against the records themselves.
 */
import { afterAll, describe, expect, test } from 'vitest';
import { engines, hostFetch, type TestRuntime } from '../support/runtime.ts';
import { tenantsWith } from '../support/tenants.ts';
import { activeMember, useRuntime } from '../support/accounts.ts';
import { useMollieStandIn } from '../support/mollie-stand-in.ts';
import { staffLogin } from '../support/console.ts';
import type { RevenueView } from '../../src/contract/revenue.ts';

const KEY_ENV = 'MOLLIE_KEY_SPETTER_REVENUE_LATE';
const mollie = useMollieStandIn(KEY_ENV);
const tenants = tenantsWith({ spetter: { payments: { provider: 'mollie', mollie_api_key_env: KEY_ENV } } });
afterAll(() => tenants.remove());

const DAY_MS = 86_400_000;
const dayOf = (t: number) => new Date(t).toISOString().slice(0, 10);
const monday = (day: string) => {
  const t = Date.parse(`${day}T00:00:00Z`);
  return dayOf(t - ((new Date(t).getUTCDay() + 6) % 7) * DAY_MS);
};
const periodOf = (day: string, group: 'day' | 'week' | 'month') => (group === 'day' ? day : group === 'week' ? monday(day) : day.slice(0, 7));

describe.each(engines())('revenue kept exact as refunds come late, on %s', (engine) => {
  /** How far the runtime's clock is ahead of the real one. */
  let ahead = 0;
  const rt = useRuntime(engine, () => ({ tenantsDir: tenants.dir, config: { now: () => new Date(Date.now() + ahead) } }));

  const webhook = (id: string) =>
    hostFetch(rt(), 'spetter', '/api/payment-webhook.php', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `id=${encodeURIComponent(id)}` });

  async function buyStarter(client: Awaited<ReturnType<typeof activeMember>>['client']): Promise<string> {
    const started = await client.post('/api/payment.php', { package_id: 'starter', method: 'ideal' });
    expect(started.status, started.text).toBe(200);
    const id = (started.json().checkout_url as string).split('/').pop()!;
    mollie().setStatus(id, 'paid');
    expect((await webhook(id)).status).toBe(200);
    return id;
  }

  /** The members who paid in [from, to] per period, from the payments themselves. */
  async function payersFromRecords(from: string, to: string, group: 'day' | 'week' | 'month'): Promise<Map<string, number>> {
    const paid = await rt().db.db.selectFrom('payments').select(['user_id', 'paid_at']).where('tenant_id', '=', 'spetter').where('status', '=', 'paid').execute();
    const sets = new Map<string, Set<number>>();
    for (const p of paid) {
      const day = p.paid_at!.slice(0, 10);
      if (day < from || day > to) continue;
      const period = periodOf(day, group);
      sets.set(period, (sets.get(period) ?? new Set()).add(p.user_id));
    }
    return new Map([...sets].map(([k, v]) => [k, v.size]));
  }

  test('a refund and a chargeback seen days later count on the day seen, the old days stay as kept, and paying members and an old cohort\'s conversion stay exact', async () => {
    const { client: finance } = await staffLogin(rt(), 'finance');
    const d0 = dayOf(Date.now());
    const d3 = dayOf(Date.now() + 3 * DAY_MS);
    // Day 0: A buys twice, B once; C activates and buys nothing yet.
    const a = await activeMember(rt(), 'spetter');
    const b = await activeMember(rt(), 'spetter');
    const c = await activeMember(rt(), 'spetter');
    const aPaid = await buyStarter(a.client);
    await buyStarter(a.client);
    const bPaid = await buyStarter(b.client);

    // Three days on: days 0 to 2 have ended and are kept on the first answer.
    ahead = 3 * DAY_MS;
    const ask = async (from: string, to: string, group: 'day' | 'week' | 'month') => {
      const res = await finance.get(`/api/console/revenue?brand=spetter&from=${from}&to=${to}&group=${group}`);
      expect(res.status, res.text).toBe(200);
      return res.json() as RevenueView;
    };
    const before = await ask(d0, d3, 'day');
    expect(await rt().db.db.selectFrom('revenue_days_done').select('day').where('day', '=', d0).execute()).toEqual([{ day: d0 }]);
    const money = (view: RevenueView, period: string) => view.money.find((r) => r.period === period && r.currency === 'EUR');
    const members = (view: RevenueView, period: string) => view.members.find((r) => r.period === period)!;
    expect(money(before, d0)).toMatchObject({ purchases: 3, first_purchases: 2, paying_members: 2, refunds: { count: 0, amount: 0 }, chargebacks: { count: 0, amount: 0 } });
    expect(members(before, d0)).toMatchObject({ activations: 3, converted: 2, paying_members: 2 });

    // Day 3: A's first payment is refunded in part, B's charged back, and C (of day 0's cohort) buys at last.
    mollie().giveBack(aPaid, { refunded: 500 });
    await webhook(aPaid);
    mollie().giveBack(bPaid, { chargedBack: 1499 });
    await webhook(bPaid);
    await buyStarter(c.client);

    const after = await ask(d0, d3, 'day');
    // Day 0's money is what it was: the refund and the chargeback are counted on day 3, where they were seen.
    expect(money(after, d0)).toEqual(money(before, d0));
    expect(money(after, d3)).toMatchObject({ purchases: 1, first_purchases: 1, paying_members: 1, refunds: { count: 1, amount: 500 }, chargebacks: { count: 1, amount: 1499 }, net_revenue: 1499 - 500 - 1499 });
    // Day 0's activation cohort has converted one more member since.
    expect(members(after, d0)).toMatchObject({ activations: 3, converted: 3, conversion: 1, paying_members: 2 });
    expect(members(after, d3)).toMatchObject({ activations: 0, paying_members: 1, first_purchases: 1 });

    // Weeks and months: a member who paid on two days of a period is one payer; whole periods and periods cut by the range alike.
    for (const group of ['day', 'week', 'month'] as const) {
      const ranges: [string, string][] = [
        [d0, d3],
        group === 'day' ? [d0, d0] : group === 'week' ? [monday(d0), dayOf(Date.parse(`${monday(d3)}T00:00:00Z`) + 6 * DAY_MS)] : [`${d0.slice(0, 7)}-01`, dayOf(Date.UTC(Number(d3.slice(0, 4)), Number(d3.slice(5, 7)), 0))],
      ];
      for (const [from, to] of ranges) {
        const view = await ask(from, to, group);
        const expected = await payersFromRecords(from, to, group);
        for (const period of view.periods) {
          expect(members(view, period).paying_members, `${group} ${from}..${to} ${period}`).toBe(expected.get(period) ?? 0);
          expect(money(view, period)?.paying_members ?? 0, `${group} ${from}..${to} ${period}`).toBe(expected.get(period) ?? 0);
        }
        // Kept before the late events or summed from the records now, the same answer (credits aside:
        // the ledger dates its entries by the database's clock, which this test does not move).
        const withoutCredits = (v: RevenueView) => ({ ...v, members: v.members.map(({ credits: _, ...m }) => m) });
        await rt().db.db.deleteFrom('revenue_days').execute();
        await rt().db.db.deleteFrom('revenue_days_done').execute();
        expect(withoutCredits(await ask(from, to, group)), `${group} ${from}..${to}`).toEqual(withoutCredits(view));
      }
    }
    const week = await ask(d0, d3, 'week');
    if (monday(d0) === monday(d3)) expect(members(week, monday(d0))).toMatchObject({ paying_members: 3, first_purchases: 3, converted: 3 });
  });
});
