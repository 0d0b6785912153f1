/**
 * The revenue queries at scale (issue 23, docs/API.md "Revenue"): a database of its own with
 * 100,000 members of spetter and 20,000 of their payments over a year (plus velvet at half that),
 * with refunds, chargebacks and a credit ledger of purchases and spends, then the revenue
 * service's answer timed for a month of one brand (target < 200 ms) and a year of every brand
 * (target < 2 s): the first answer (which sums the ended days not kept yet, as the hourly job
 * does), then ten more. Used by bench/run.ts (`npm run bench -- revenue`); it never asserts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { sql, type Kysely } from 'kysely';
import { createDb, createSchemaIfMissing, type Database, type Db } from '../src/server/db/index.ts';
import { analyze, migrateToLatest } from '../src/server/db/migrate.ts';
import { createRevenueService, payerFacts } from '../src/server/services/revenue.ts';
import { RevenueQuery } from '../src/contract/console.ts';
import { loadAllTenants } from '../src/tenant/load.ts';
import { TENANTS_DIR } from '../cli/paths.ts';
import type { Engine } from './lib.ts';

const DAY = 86_400_000;
const BATCH = 1000;

/** A brand's population: members over the last year, 70% activated, payments by a fifth of them. */
export async function seed(db: Kysely<Database>, brand: string, members: number, payments: number, end: number): Promise<void> {
  // A small deterministic generator: the same data on both engines.
  let state = brand.length * 7919;
  const rand = () => ((state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const at = (t: number) => new Date(t).toISOString();
  const ids: { id: number; signup: number }[] = [];
  for (let i = 0; i < members; i += BATCH) {
    const rows = Array.from({ length: Math.min(BATCH, members - i) }, (_, k) => {
      const signup = end - rand() * 365 * DAY;
      const active = rand() < 0.7;
      return { tenant_id: brand, email: `bench-${i + k}@${brand}.invalid`, password_hash: '!', language: 'nl', status: active ? ('active' as const) : ('not_confirmed' as const), signup_date: at(signup), activated_at: active ? at(signup + rand() * DAY) : null };
    });
    const inserted = await db.insertInto('users').values(rows).returning(['id', 'signup_date']).execute();
    ids.push(...inserted.map((r) => ({ id: r.id, signup: Date.parse(r.signup_date) })));
  }
  const payers = ids.filter((_, i) => i % 5 === 0);
  const firstSeen = new Set<number>();
  const paid: { id: number; user: number; t: number }[] = [];
  for (let i = 0; i < payments; i += BATCH) {
    const rows = Array.from({ length: Math.min(BATCH, payments - i) }, (_, k) => {
      const n = i + k;
      const payer = payers[n % payers.length]!;
      const t = Math.min(end - 1000, payer.signup + (n / payments) * (end - payer.signup));
      const first = !firstSeen.has(payer.id);
      firstSeen.add(payer.id);
      return { tenant_id: brand, user_id: payer.id, package_id: 'starter', credits: 50, amount: 1499, currency: 'EUR', method: 'ideal', provider: 'test', provider_id: `bench-${brand}-${n}`, status: 'paid' as const, checkout_url: '', paid_at: at(t), created_at: at(t), updated_at: at(t), invoice_net: 1239, first_purchase: (first ? 1 : 0) as 0 | 1 };
    });
    const inserted = await db.insertInto('payments').values(rows).returning(['id', 'user_id', 'paid_at']).execute();
    paid.push(...inserted.map((r) => ({ id: r.id, user: r.user_id, t: Date.parse(r.paid_at!) })));
    // What the payment's settling keeps (services/revenue.ts keepPayer), by the batch.
    const facts = rows.flatMap((r) => payerFacts(r));
    for (let f = 0; f < facts.length; f += BATCH) await db.insertInto('revenue_payers').values(facts.slice(f, f + BATCH)).onConflict((oc) => oc.doNothing()).execute();
    await db
      .insertInto('credit_ledger')
      .values(inserted.map((r) => ({ tenant_id: brand, user_id: r.user_id, delta: 50, reason: 'purchase', ref: `bench-${r.id}`, created_at: r.paid_at! })))
      .execute();
  }
  await db.updateTable('users').set({ paid_user: 1 }).where('tenant_id', '=', brand).where('id', 'in', [...firstSeen].slice(0, 30_000)).execute();
  // Refunds (2%) and chargebacks (0.5%) a few days later; ten spends a payment.
  const reversals = paid.filter((_, i) => i % 40 === 0 || i % 200 === 1);
  for (let i = 0; i < reversals.length; i += BATCH) {
    await db
      .insertInto('payment_reversals')
      .values(reversals.slice(i, i + BATCH).map((p, k) => ({ payment_id: p.id, tenant_id: brand, user_id: p.user, kind: (i + k) % 5 === 4 ? ('chargeback' as const) : ('refund' as const), amount: 1499, total: 1499, currency: 'EUR', at: at(Math.min(end - 1, p.t + 3 * DAY)) })))
      .execute();
  }
  for (let i = 0; i < paid.length * 10; i += BATCH) {
    await db
      .insertInto('credit_ledger')
      .values(Array.from({ length: BATCH }, (_, k) => {
        const p = paid[Math.floor((i + k) / 10)]!;
        return { tenant_id: brand, user_id: p.user, delta: -5, reason: 'message', ref: `bench-m-${brand}-${i + k}`, created_at: at(Math.min(end - 1, p.t + ((i + k) % 10) * 3_600_000)) };
      }))
      .execute();
  }
}

interface Timing {
  engine: Engine;
  shape: string;
  rows: number;
  /** The first answer: it sums the ended days not kept yet (the hourly job's work). */
  first: number;
  p50: number;
  max: number;
}

/** Seeds a fresh database per engine and times each revenue shape 10 times after 2 warm-ups. */
export async function revenueSection(engines: Engine[]): Promise<{ timings: Timing[]; seeded: string }> {
  const MEMBERS = Number(process.env.BENCH_REVENUE_MEMBERS ?? 100_000);
  const PAYMENTS = Number(process.env.BENCH_REVENUE_PAYMENTS ?? 20_000);
  const tenants = loadAllTenants(TENANTS_DIR);
  const end = Date.parse(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`) + DAY;
  const day = (t: number) => new Date(t).toISOString().slice(0, 10);
  const timings: Timing[] = [];
  const staff = { id: 0, email: 'bench@example.com', role: 'finance' as const, brands: null };
  const shapes: [string, Record<string, string>][] = [
    ['spetter, a month, per day', { brand: 'spetter', from: day(end - 30 * DAY), to: day(end - DAY), group: 'day' }],
    ['spetter, a month, per week', { brand: 'spetter', from: day(end - 30 * DAY), to: day(end - DAY), group: 'week' }],
    ['every brand, a year, per month', { from: day(end - 365 * DAY), to: day(end - DAY), group: 'month' }],
    ['every brand, a year, per day', { from: day(end - 365 * DAY), to: day(end - DAY), group: 'day' }],
    ['every brand, a year, per day, EUR', { from: day(end - 365 * DAY), to: day(end - DAY), group: 'day', eur: '1' }],
  ];
  for (const engine of engines) {
    const dir = mkdtempSync(join(tmpdir(), 'sitegen-bench-revenue-'));
    const schema = engine === 'postgres' ? `bench_${randomBytes(5).toString('hex')}` : undefined;
    let handle: Db | undefined;
    try {
      handle = engine === 'postgres' ? createDb({ url: process.env.DATABASE_URL!, schema }) : createDb({ file: join(dir, 'bench.db') });
      await createSchemaIfMissing(handle.db, schema);
      await migrateToLatest(handle.db);
      await seed(handle.db, 'spetter', MEMBERS, PAYMENTS, end);
      await seed(handle.db, 'velvet', MEMBERS / 2, PAYMENTS / 2, end);
      // Both engines plan from statistics: fresh ones, as the runtime's start (migrate.ts analyze) and autovacuum would have them by now.
      await analyze(handle.db);
      const revenue = createRevenueService({ db: handle.db, tenants: () => tenants, eurRates: { GBP: 1.17 } });
      for (const [shape, query] of shapes) {
        const input = RevenueQuery.parse(query);
        const times: number[] = [];
        let rows = 0;
        let first = 0;
        for (let i = 0; i < 12; i++) {
          const t0 = performance.now();
          const answer = await revenue.revenue(staff, input);
          if (i === 0) first = performance.now() - t0;
          if (i >= 2) times.push(performance.now() - t0);
          rows = answer.money.length + answer.members.length;
        }
        times.sort((a, b) => a - b);
        timings.push({ engine, shape, rows, first, p50: times[Math.floor(times.length / 2)]!, max: times.at(-1)! });
      }
    } finally {
      await handle?.close();
      rmSync(dir, { recursive: true, force: true });
      if (schema) {
        const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
        await client.connect();
        await client.query(`drop schema if exists ${schema} cascade`).finally(() => client.end());
      }
    }
  }
  return { timings, seeded: `${MEMBERS.toLocaleString('en')} members and ${PAYMENTS.toLocaleString('en')} payments of spetter, half that of velvet, over a year; 2.5% refunded or charged back, 10 spends a payment` };
}
