import { sql, type Kysely, type SelectQueryBuilder, type Selectable } from 'kysely';
import type { Database, RevenueDaysTable, RevenuePayersTable } from '../db/schema.ts';
import type { Tenant } from '../../tenant/schema.ts';
import { periodOf } from '../db/engine.ts';
import { DISPUTE_RATE_FLAG, REVENUE_MAX_DAYS, type RevenueGroup, type RevenueInput, type StaffView } from '../../contract/console.ts';
import type { RevenueDisputeRow, RevenueMembersRow, RevenueMoneyRow, RevenueView } from '../../contract/revenue.ts';
import { amongBrands, brandCondition, brandsToQuery } from './brand-scope.ts';

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

/** The first and the last day of a period as periodOfDay names it. */
function daysOfPeriod(period: string, group: RevenueGroup): [string, string] {
  if (group === 'day') return [period, period];
  if (group === 'week') return [period, new Date(Date.parse(`${period}T00:00:00Z`) + 6 * DAY_MS).toISOString().slice(0, 10)];
  const [y, m] = period.split('-').map(Number);
  return [`${period}-01`, new Date(Date.UTC(y!, m!, 0)).toISOString().slice(0, 10)];
}

/** A payer's rows of `revenue_payers` (migration 2026-11-26-0035-revenue-payers): the payment's day, week and month, per its currency and for all currencies (''). */
export function payerFacts(payment: { tenant_id: string; user_id: number; currency: string; paid_at: string }): Selectable<RevenuePayersTable>[] {
  const day = payment.paid_at.slice(0, 10);
  return (['day', 'week', 'month'] as const).flatMap((grain) => [payment.currency, ''].map((currency) => ({ tenant_id: payment.tenant_id, grain, period: periodOfDay(day, grain), currency, user_id: payment.user_id })));
}

/** Keeps a member who paid among the payers of the payment's periods, in the transaction that marks the payment paid; once per member and period. */
export async function keepPayer(trx: Kysely<Database>, payment: Parameters<typeof payerFacts>[0]): Promise<void> {
  await trx.insertInto('revenue_payers').values(payerFacts(payment)).onConflict((oc) => oc.doNothing()).execute();
}

/** Every period of a range, oldest first. */
export function periodsOf(from: string, to: string, group: RevenueGroup): string[] {
  const periods = new Set<string>();
  for (let day = from; day <= to; day = dayAfter(day)) periods.add(periodOfDay(day, group));
  return [...periods];
}

const ratio = (part: number, whole: number) => (whole > 0 ? part / whole : null);

/** A day is summed for good this long after it ended: a payment's transaction commits a moment after its timestamp. */
const CLOSE_AFTER_MS = 60 * 60_000;
/** Rows of revenue_days written per statement. */
const KEEP_BATCH = 500;

/** Sums of a range per brand, period, measure and key: the shape `revenue_days` keeps a day in (measure: paid, refund, chargeback (key: the currency), signups, activations (key ''), credits (key: the ledger reason)). */
type Sum = Omit<RevenueDaysTable, 'day' | 'tenant_id'> & { brand: string; period: string };

type Scope = <QB extends SelectQueryBuilder<Database, any, any>>(q: QB) => QB;

/**
 * Revenue figures (issue 23), computed from the stored records (payments with their issued
 * invoices, payment_reversals, users, the credit ledger). Each record keeps the day it was
 * written on, so an ended day never changes: its sums are kept in `revenue_days` once (the first
 * query that needs them, or the hourly job), and only today is summed from the records at each
 * request; a refund that comes late is counted on the day it was seen. What cannot be added up
 * from days (members who paid in a week or month; how many of an activation cohort have bought
 * since) is counted live over indexes. bench/revenue.ts times it at 100,000 members.
 */
export function createRevenueService(deps: { db: Kysely<Database>; tenants: () => Tenant[]; eurRates?: Record<string, number>; now?: () => Date }) {
  const { db } = deps;
  const rates: Record<string, number> = { EUR: 1, ...deps.eurRates };
  const now = () => deps.now?.() ?? new Date();
  const all: Scope = (q) => q;

  /** The last day whose sums are final. */
  const lastClosedDay = () => new Date(Date.parse(`${new Date(now().getTime() - CLOSE_AFTER_MS).toISOString().slice(0, 10)}T00:00:00Z`) - DAY_MS).toISOString().slice(0, 10);

  /** The sums of [start, end) from the records themselves. */
  async function liveSums(scope: Scope, start: string, end: string, group: RevenueGroup): Promise<Sum[]> {
    const [paid, reversals, signups, activations, ledger] = await Promise.all([
      scope(db.selectFrom('payments'))
        .select((eb) => ['tenant_id as brand', periodOf(db, 'paid_at', group).as('period'), 'currency as key', eb.fn.countAll<number>().as('n'), eb.fn.sum<number>('amount').as('amount'), eb.fn.sum<number>(eb.fn.coalesce('invoice_net', 'amount')).as('net'), eb.fn.sum<number>('first_purchase').as('firsts')])
        .where('status', '=', 'paid')
        .where('paid_at', '>=', start)
        .where('paid_at', '<', end)
        .groupBy(['tenant_id', 'period', 'currency'])
        .execute(),
      scope(db.selectFrom('payment_reversals'))
        .select((eb) => ['tenant_id as brand', periodOf(db, 'at', group).as('period'), 'kind', 'currency as key', eb.fn.countAll<number>().as('n'), eb.fn.sum<number>('amount').as('amount')])
        .where('at', '>=', start)
        .where('at', '<', end)
        .groupBy(['tenant_id', 'period', 'kind', 'currency'])
        .execute(),
      scope(db.selectFrom('users'))
        .select((eb) => ['tenant_id as brand', periodOf(db, 'signup_date', group).as('period'), eb.fn.countAll<number>().as('n')])
        .where('signup_date', '>=', start)
        .where('signup_date', '<', end)
        .groupBy(['tenant_id', 'period'])
        .execute(),
      scope(db.selectFrom('users'))
        .select((eb) => ['tenant_id as brand', periodOf(db, 'activated_at', group).as('period'), eb.fn.countAll<number>().as('n')])
        .where('activated_at', '>=', start)
        .where('activated_at', '<', end)
        .groupBy(['tenant_id', 'period'])
        .execute(),
      scope(db.selectFrom('credit_ledger'))
        .select((eb) => ['tenant_id as brand', periodOf(db, 'created_at', group).as('period'), 'reason as key', eb.fn.sum<number>('delta').as('amount')])
        .where('created_at', '>=', start)
        .where('created_at', '<', end)
        .where('reason', 'in', ['purchase', 'refund', ...SPEND_REASONS])
        .groupBy(['tenant_id', 'period', 'reason'])
        .execute(),
    ]);
    const sum = (r: { brand: string; period: string }, measure: string, key: string, v: { n?: unknown; amount?: unknown; net?: unknown; firsts?: unknown }): Sum => ({
      brand: r.brand,
      period: r.period,
      measure,
      key,
      n: Number(v.n ?? 0),
      amount: Number(v.amount ?? 0),
      net: Number(v.net ?? 0),
      firsts: Number(v.firsts ?? 0),
    });
    return [
      ...paid.map((r) => sum(r, 'paid', r.key, r)),
      ...reversals.map((r) => sum(r, r.kind, r.key, r)),
      ...signups.map((r) => sum(r, 'signups', '', r)),
      ...activations.map((r) => sum(r, 'activations', '', r)),
      ...ledger.map((r) => sum(r, 'credits', r.key, r)),
    ];
  }

  /** Sums the closed days of [from, to] not kept yet, for every brand, into revenue_days (once, whichever process comes first). */
  async function keepDays(from: string, to: string): Promise<void> {
    const done = new Set((await db.selectFrom('revenue_days_done').select('day').where('day', '>=', from).where('day', '<=', to).execute()).map((r) => r.day));
    const missing = periodsOf(from, to, 'day').filter((d) => !done.has(d));
    if (!missing.length) return;
    const wanted = new Set(missing);
    const sums = (await liveSums(all, `${missing[0]}T00:00:00.000Z`, `${dayAfter(missing.at(-1)!)}T00:00:00.000Z`, 'day')).filter((s) => wanted.has(s.period));
    await db.transaction().execute(async (trx) => {
      for (let i = 0; i < sums.length; i += KEEP_BATCH) {
        await trx
          .insertInto('revenue_days')
          .values(sums.slice(i, i + KEEP_BATCH).map(({ brand, period, ...s }) => ({ tenant_id: brand, day: period, ...s })))
          .onConflict((oc) => oc.doNothing())
          .execute();
      }
      for (let i = 0; i < missing.length; i += KEEP_BATCH) {
        await trx.insertInto('revenue_days_done').values(missing.slice(i, i + KEEP_BATCH).map((day) => ({ day }))).onConflict((oc) => oc.doNothing()).execute();
      }
    });
  }

  /** The kept sums of the closed days [from, to], per period. */
  async function keptSums(scope: Scope, from: string, to: string, group: RevenueGroup): Promise<Sum[]> {
    const rows = await scope(db.selectFrom('revenue_days'))
      .select((eb) => ['tenant_id as brand', periodOf(db, 'day', group).as('period'), 'measure', 'key', eb.fn.sum<number>('n').as('n'), eb.fn.sum<number>('amount').as('amount'), eb.fn.sum<number>('net').as('net'), eb.fn.sum<number>('firsts').as('firsts')])
      .where('day', '>=', from)
      .where('day', '<=', to)
      .groupBy(['tenant_id', 'period', 'measure', 'key'])
      .execute();
    return rows.map((r) => ({ ...r, n: Number(r.n), amount: Number(r.amount), net: Number(r.net), firsts: Number(r.firsts) }));
  }

  /**
   * The members who paid in each period of [from, to], per brand and currency ('': any currency),
   * from `revenue_payers`: a period the range covers whole is a count of its facts; a period cut
   * by the range's ends (a week or month begun before `from` or ending after `to`) is the distinct
   * members of its days inside the range.
   */
  async function payingMembers(scope: Scope, from: string, to: string, group: RevenueGroup): Promise<{ brand: string; period: string; currency: string; paying: number }[]> {
    const periods = periodsOf(from, to, group);
    const whole = periods.filter((p) => {
      const [first, last] = daysOfPeriod(p, group);
      return first >= from && last <= to;
    });
    const cut = periods.filter((p) => !whole.includes(p));
    const counted = whole.length
      ? scope(db.selectFrom('revenue_payers'))
          .select((eb) => ['tenant_id as brand', 'period', 'currency', eb.fn.countAll<number>().as('paying')])
          .where('grain', '=', group)
          .where('period', '>=', whole[0]!)
          .where('period', '<=', whole.at(-1)!)
          .groupBy(['tenant_id', 'period', 'currency'])
          .execute()
      : Promise.resolve([]);
    const edges = cut.map(async (period) => {
      const [first, last] = daysOfPeriod(period, group);
      const rows = await scope(db.selectFrom('revenue_payers'))
        .select((eb) => ['tenant_id as brand', 'currency', eb.fn.count<number>('user_id').distinct().as('paying')])
        .where('grain', '=', 'day')
        .where('period', '>=', first < from ? from : first)
        .where('period', '<=', last > to ? to : last)
        .groupBy(['tenant_id', 'currency'])
        .execute();
      return rows.map((r) => ({ ...r, period }));
    });
    return (await Promise.all([counted, ...edges])).flat().map((r) => ({ brand: r.brand, period: r.period, currency: r.currency, paying: Number(r.paying) }));
  }

  async function revenue(staff: StaffView, input: RevenueInput): Promise<RevenueView> {
    const { group } = input;
    const start = `${input.from}T00:00:00.000Z`;
    const end = `${dayAfter(input.to)}T00:00:00.000Z`;
    const asked = brandsToQuery(staff, input.brand);
    /** Only the brands asked for and in the staff member's scope (none: no rows). */
    const scoped: Scope = (q) => q.where(brandCondition('tenant_id', asked)) as typeof q;

    // Ended days from revenue_days, today (and what has not ended) from the records.
    const closed = lastClosedDay() < input.to ? lastClosedDay() : input.to;
    const liveFrom = closed >= input.from ? dayAfter(closed) : input.from;
    if (closed >= input.from) await keepDays(input.from, closed);
    const [kept, live, payers, converted] = await Promise.all([
      closed >= input.from ? keptSums(scoped, input.from, closed, group) : Promise.resolve([]),
      liveFrom <= input.to ? liveSums(scoped, `${liveFrom}T00:00:00.000Z`, end, group) : Promise.resolve([]),
      payingMembers(scoped, input.from, input.to, group),
      // Members of each activation cohort who have bought since (users_converted_idx: a literal 1, so the partial index applies).
      scoped(db.selectFrom('users'))
        .select((eb) => ['tenant_id as brand', periodOf(db, 'activated_at', group).as('period'), eb.fn.countAll<number>().as('n')])
        .where('paid_user', '=', sql.lit(1))
        .where('activated_at', '>=', start)
        .where('activated_at', '<', end)
        .groupBy(['tenant_id', 'period'])
        .execute(),
    ]);
    const sums = [...kept, ...live];

    const periods = periodsOf(input.from, input.to, group);
    const brands = [...new Set([...deps.tenants().map((t) => t.id), ...sums.map((r) => r.brand)])]
      .filter((b) => amongBrands(asked, b))
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
    // Per brand and period, every period of the range.
    const members = new Map<string, RevenueMembersRow>();
    for (const brand of brands) {
      for (const period of periods) {
        members.set(`${brand}|${period}`, { brand, period, signups: 0, activations: 0, converted: 0, conversion: null, first_purchases: 0, paying_members: 0, credits: { sold: 0, spent: 0, taken_back: 0 } });
      }
    }
    const at = (brand: string, period: string) => members.get(`${brand}|${period}`);

    for (const s of sums) {
      const row = at(s.brand, s.period);
      switch (s.measure) {
        case 'paid': {
          const m = moneyRow(s.brand, s.period, s.key);
          m.purchases += s.n;
          m.gross += s.amount;
          m.net += s.net;
          m.first_purchases += s.firsts;
          if (row) row.first_purchases += s.firsts;
          break;
        }
        case 'refund':
        case 'chargeback': {
          const m = moneyRow(s.brand, s.period, s.key)[s.measure === 'refund' ? 'refunds' : 'chargebacks'];
          m.count += s.n;
          m.amount += s.amount;
          break;
        }
        case 'signups':
          if (row) row.signups += s.n;
          break;
        case 'activations':
          if (row) row.activations += s.n;
          break;
        case 'credits':
          if (!row) break;
          if (s.key === 'purchase') row.credits.sold += s.amount;
          else if (s.key === 'refund') row.credits.taken_back -= s.amount;
          else row.credits.spent -= s.amount;
      }
    }
    for (const r of payers) {
      if (r.currency) moneyRow(r.brand, r.period, r.currency).paying_members = r.paying;
      else {
        const row = at(r.brand, r.period);
        if (row) row.paying_members = r.paying;
      }
    }
    for (const r of converted) {
      const row = at(r.brand, r.period);
      if (row) row.converted = Number(r.n);
    }
    for (const row of members.values()) row.conversion = ratio(row.converted, row.activations);
    for (const row of money.values()) {
      row.repeat_purchases = row.purchases - row.first_purchases;
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

  return {
    revenue,
    /** Sums the ended days of the longest range a query may ask for that are not kept yet (the hourly job); the first run pays for the history. */
    async keep(): Promise<void> {
      const to = lastClosedDay();
      await keepDays(new Date(Date.parse(`${to}T00:00:00Z`) - (REVENUE_MAX_DAYS - 1) * DAY_MS).toISOString().slice(0, 10), to);
    },
  };
}

export type RevenueService = ReturnType<typeof createRevenueService>;
