import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Tenant } from '../../tenant/schema.ts';
import { periodOf } from '../db/engine.ts';
import { DISPUTE_RATE_FLAG, type RevenueGroup, type RevenueInput, type StaffView } from '../../contract/console.ts';
import type { RevenueDisputeRow, RevenueMembersRow, RevenueMoneyRow, RevenueView } from '../../contract/revenue.ts';
import { inScope } from './console.ts';

/** Ledger reasons that spend credits (messages, photos, gifts); `refund` is credits taken back with a payment. */
const SPEND_REASONS = ['message', 'photo', 'gift'];

const DAY_MS = 86_400_000;
const dayAfter = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);

/** The period of a day as periodOf (db/engine.ts) computes it in SQL. */
function periodOfDay(day: string, group: RevenueGroup): string {
  if (group === 'day') return day;
  if (group === 'month') return day.slice(0, 7);
  const t = Date.parse(`${day}T00:00:00Z`);
  return new Date(t - ((new Date(t).getUTCDay() + 6) % 7) * DAY_MS).toISOString().slice(0, 10);
}

/** Every period of a range, oldest first. */
export function periodsOf(from: string, to: string, group: RevenueGroup): string[] {
  const periods = new Set<string>();
  for (let day = from; day <= to; day = dayAfter(day)) periods.add(periodOfDay(day, group));
  return [...periods];
}

const ratio = (part: number, whole: number) => (whole > 0 ? part / whole : null);

/**
 * Revenue figures (issue 23): computed from the stored records (payments with their issued
 * invoices, payment_reversals, users, the credit ledger) by indexed queries grouped per brand,
 * period and currency in the database; bench/revenue.ts times them at 100,000 members and
 * 20,000 payments. Nothing is pre-aggregated, so a late refund is exact the moment it is stored.
 */
export function createRevenueService(deps: { db: Kysely<Database>; tenants: () => Tenant[]; eurRates?: Record<string, number> }) {
  const { db } = deps;
  const rates: Record<string, number> = { EUR: 1, ...deps.eurRates };

  async function revenue(staff: StaffView, input: RevenueInput): Promise<RevenueView> {
    const { group } = input;
    const start = `${input.from}T00:00:00.000Z`;
    const end = `${dayAfter(input.to)}T00:00:00.000Z`;
    const asked = input.brand ? [input.brand] : staff.brands;
    /** Only the brands asked for and in the staff member's scope (none: no rows). */
    const scoped = <QB extends SelectQueryBuilder<Database, any, any>>(q: QB, column: string): QB => {
      if (input.brand && !inScope(staff, input.brand)) return q.where(sql<boolean>`1 = 0`) as QB;
      if (asked === null) return q;
      return (asked.length ? q.where(sql.ref(column), 'in', asked) : q.where(sql<boolean>`1 = 0`)) as QB;
    };

    const [paid, payers, reversals, signups, activations, ledger] = await Promise.all([
      scoped(db.selectFrom('payments'), 'tenant_id')
        .select((eb) => [
          'tenant_id as brand',
          periodOf(db, 'paid_at', group).as('period'),
          'currency',
          eb.fn.countAll<number>().as('purchases'),
          eb.fn.sum<number>('amount').as('gross'),
          eb.fn.sum<number>(eb.fn.coalesce('invoice_net', 'amount')).as('net'),
          eb.fn.sum<number>('first_purchase').as('first_purchases'),
          eb.fn.count<number>('user_id').distinct().as('paying'),
        ])
        .where('status', '=', 'paid')
        .where('paid_at', '>=', start)
        .where('paid_at', '<', end)
        .groupBy(['tenant_id', 'period', 'currency'])
        .execute(),
      scoped(db.selectFrom('payments'), 'tenant_id')
        .select((eb) => ['tenant_id as brand', periodOf(db, 'paid_at', group).as('period'), eb.fn.count<number>('user_id').distinct().as('paying')])
        .where('status', '=', 'paid')
        .where('paid_at', '>=', start)
        .where('paid_at', '<', end)
        .groupBy(['tenant_id', 'period'])
        .execute(),
      scoped(db.selectFrom('payment_reversals'), 'tenant_id')
        .select((eb) => ['tenant_id as brand', periodOf(db, 'at', group).as('period'), 'currency', 'kind', eb.fn.countAll<number>().as('count'), eb.fn.sum<number>('amount').as('amount')])
        .where('at', '>=', start)
        .where('at', '<', end)
        .groupBy(['tenant_id', 'period', 'currency', 'kind'])
        .execute(),
      scoped(db.selectFrom('users'), 'tenant_id')
        .select((eb) => ['tenant_id as brand', periodOf(db, 'signup_date', group).as('period'), eb.fn.countAll<number>().as('n')])
        .where('signup_date', '>=', start)
        .where('signup_date', '<', end)
        .groupBy(['tenant_id', 'period'])
        .execute(),
      scoped(db.selectFrom('users'), 'tenant_id')
        .select((eb) => ['tenant_id as brand', periodOf(db, 'activated_at', group).as('period'), eb.fn.countAll<number>().as('n'), eb.fn.sum<number>('paid_user').as('converted')])
        .where('activated_at', '>=', start)
        .where('activated_at', '<', end)
        .groupBy(['tenant_id', 'period'])
        .execute(),
      scoped(db.selectFrom('credit_ledger'), 'tenant_id')
        .select((eb) => ['tenant_id as brand', periodOf(db, 'created_at', group).as('period'), 'reason', eb.fn.sum<number>('delta').as('delta')])
        .where('created_at', '>=', start)
        .where('created_at', '<', end)
        .where('reason', 'in', ['purchase', 'refund', ...SPEND_REASONS])
        .groupBy(['tenant_id', 'period', 'reason'])
        .execute(),
    ]);

    const periods = periodsOf(input.from, input.to, group);
    const brands = [...new Set([...deps.tenants().map((t) => t.id), ...paid.map((r) => r.brand), ...signups.map((r) => r.brand)])]
      .filter((b) => inScope(staff, b) && (!input.brand || b === input.brand))
      .sort();

    // Per brand, period and currency.
    const money = new Map<string, RevenueMoneyRow>();
    const moneyRow = (brand: string, period: string, currency: string) => {
      const key = `${brand}|${period}|${currency}`;
      let row = money.get(key);
      if (!row) {
        row = { brand, period, currency, purchases: 0, gross: 0, net: 0, first_purchases: 0, repeat_purchases: 0, refunds: { count: 0, amount: 0 }, chargebacks: { count: 0, amount: 0 }, net_revenue: 0, paying_members: 0, arppu: null, dispute_rate: null, dispute_flag: false };
        money.set(key, row);
      }
      return row;
    };
    for (const r of paid) {
      const row = moneyRow(r.brand, r.period, r.currency);
      row.purchases = Number(r.purchases);
      row.gross = Number(r.gross);
      row.net = Number(r.net);
      row.first_purchases = Number(r.first_purchases);
      row.repeat_purchases = row.purchases - row.first_purchases;
      row.paying_members = Number(r.paying);
    }
    for (const r of reversals) {
      const row = moneyRow(r.brand, r.period, r.currency);
      row[r.kind === 'chargeback' ? 'chargebacks' : 'refunds'] = { count: Number(r.count), amount: Number(r.amount) };
    }
    for (const row of money.values()) {
      row.net_revenue = row.gross - row.refunds.amount - row.chargebacks.amount;
      row.arppu = row.paying_members > 0 ? Math.round(row.net_revenue / row.paying_members) : null;
      row.dispute_rate = ratio(row.chargebacks.count, row.purchases);
      row.dispute_flag = row.dispute_rate !== null ? row.dispute_rate > DISPUTE_RATE_FLAG : row.chargebacks.count > 0;
      if (input.eur) {
        const rate = rates[row.currency];
        const eur = (cents: number) => Math.round(cents * rate!);
        row.eur = rate === undefined ? null : { rate, gross: eur(row.gross), net: eur(row.net), refunds: eur(row.refunds.amount), chargebacks: eur(row.chargebacks.amount), net_revenue: eur(row.net_revenue) };
      }
    }

    // Per brand and period, every period of the range.
    const members = new Map<string, RevenueMembersRow>();
    for (const brand of brands) {
      for (const period of periods) {
        members.set(`${brand}|${period}`, { brand, period, signups: 0, activations: 0, converted: 0, conversion: null, first_purchases: 0, paying_members: 0, credits: { sold: 0, spent: 0, taken_back: 0 } });
      }
    }
    const at = (brand: string, period: string) => members.get(`${brand}|${period}`);
    for (const r of signups) {
      const row = at(r.brand, r.period);
      if (row) row.signups = Number(r.n);
    }
    for (const r of activations) {
      const row = at(r.brand, r.period);
      if (!row) continue;
      row.activations = Number(r.n);
      row.converted = Number(r.converted);
      row.conversion = ratio(row.converted, row.activations);
    }
    for (const r of paid) {
      const row = at(r.brand, r.period);
      if (row) row.first_purchases += Number(r.first_purchases);
    }
    for (const r of payers) {
      const row = at(r.brand, r.period);
      if (row) row.paying_members = Number(r.paying);
    }
    for (const r of ledger) {
      const row = at(r.brand, r.period);
      if (!row) continue;
      const delta = Number(r.delta);
      if (r.reason === 'purchase') row.credits.sold += delta;
      else if (r.reason === 'refund') row.credits.taken_back -= delta;
      else row.credits.spent -= delta;
    }

    // Per brand over the range: the chargeback rate, by counts (no currency needed).
    const disputes: RevenueDisputeRow[] = brands.map((brand) => {
      const rows = [...money.values()].filter((r) => r.brand === brand);
      const purchases = rows.reduce((n, r) => n + r.purchases, 0);
      const chargebacks = rows.reduce((n, r) => n + r.chargebacks.count, 0);
      const rate = ratio(chargebacks, purchases);
      return { brand, purchases, chargebacks, rate, flagged: rate !== null ? rate > DISPUTE_RATE_FLAG : chargebacks > 0 };
    });

    const order = (a: { brand: string; period: string }, b: { brand: string; period: string }) => a.brand.localeCompare(b.brand) || a.period.localeCompare(b.period);
    return {
      from: input.from,
      to: input.to,
      group,
      periods,
      brands,
      money: [...money.values()].sort((a, b) => order(a, b) || a.currency.localeCompare(b.currency)),
      members: [...members.values()].sort(order),
      disputes,
      eur_rates: input.eur ? rates : null,
    };
  }

  return { revenue };
}

export type RevenueService = ReturnType<typeof createRevenueService>;
