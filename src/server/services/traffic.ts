import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import { FUNNEL_COUNTERS, type Database, type FunnelCounter } from '../db/schema.ts';
import type { Tenant } from '../../tenant/schema.ts';
import type { EventBus } from '../bus.ts';
import { AppError, notFound } from '../errors.ts';
import { nowIso } from '../db/engine.ts';
import { brandDate } from '../../lib/brand-day.ts';
import { serializeCookie } from '../../lib/cookies.ts';
import { ATTRIBUTION_COOKIE, ATTRIBUTION_DAYS, CONTROL_VARIANT, afterVisit, pickVariant, readAttribution, trackingOf, writeAttribution, type Attribution, type LanderManifest } from '../../lib/attribution.ts';
import { CONSENT_COOKIE, CONSENT_DAYS, type ConsentChoice } from '../../lib/consent.ts';
import { SIGNIFICANCE, twoProportionTest, wilsonInterval } from '../../lib/stats.ts';
import type { Tracking } from '../../contract/enums.ts';
import type { ExperimentsInput, SourcesInput, StaffView } from '../../contract/console.ts';
import { audit } from './console.ts';
import { amongBrands, brandsToQuery } from './brand-scope.ts';

type Executor = Kysely<Database> | Transaction<Database>;

/** The dimensions of a counted event: its source_daily and lander_daily rows are projections of it. */
export interface FunnelKey {
  tenant_id: string;
  day: string;
  lander: string;
  variant: string;
  niche: number;
  locale: string;
  network: string;
  ref: string;
  currency: string;
}
const KEY_COLUMNS = ['tenant_id', 'day', 'lander', 'variant', 'niche', 'locale', 'network', 'ref', 'currency'] as const;
/** Each table's key columns. */
const TABLES = {
  source_daily: ['tenant_id', 'day', 'network', 'ref', 'currency'],
  lander_daily: ['tenant_id', 'day', 'lander', 'variant', 'niche', 'locale', 'currency'],
} as const;

/** A member's event after signup, counted for the lander and source they came from. */
export type MemberEvent = { kind: 'signup' } | { kind: 'activation' } | { kind: 'purchase'; first: boolean; amount: number; currency: string } | { kind: 'refund' | 'chargeback'; amount: number; currency: string };

/** Counts a member's event in the transaction of the change itself (so it is exact). */
export type CountMemberEvent = (trx: Executor, userId: number, event: MemberEvent) => Promise<void>;

/** Visits waiting in memory are written at least this often (ms): a lander never waits for a write. */
export const VISIT_FLUSH_MS = 1000;
/** How long a process keeps its list of ended variants at most (ms); the bus empties it sooner. */
const ENDED_CACHE_MS = 10_000;
const ENDED_TOPIC = 'lander_variants';
/** Days the sources table covers without `from` (chosen). */
const DEFAULT_DAYS = 30;
/** The longest range one call may ask for (a typo guard: 400 beyond). */
const MAX_RANGE_DAYS = 731;

/** What the console names as its method (issue 23: "name the method in the answer and the page"). */
export const EXPERIMENT_METHOD = `Wilson score interval (95%) for each conversion; two-sided two-proportion z-test (pooled) of each variant against the control, significant when p < ${SIGNIFICANCE}`;

function counts(event: MemberEvent): { currency: string; add: Partial<Record<FunnelCounter, number>> } {
  switch (event.kind) {
    case 'signup':
      return { currency: '', add: { signups: 1 } };
    case 'activation':
      return { currency: '', add: { activations: 1 } };
    case 'purchase':
      return { currency: event.currency, add: { [event.first ? 'first_purchases' : 'repeat_purchases']: 1, revenue: event.amount } };
    case 'refund':
      return { currency: event.currency, add: { refunds: 1, refunded: event.amount } };
    case 'chargeback':
      return { currency: event.currency, add: { chargebacks: 1, charged_back: event.amount } };
  }
}

/**
 * Adds to the counters of some events: one upsert of many rows per table, the events of one key
 * merged first (a statement may name a key once). An event of no lander counts for its source only.
 */
export async function bump(db: Executor, rows: (FunnelKey & Partial<Record<FunnelCounter, number>>)[], columns: readonly FunnelCounter[]): Promise<void> {
  for (const [table, keys] of Object.entries(TABLES) as [keyof typeof TABLES, readonly (keyof FunnelKey)[]][]) {
    const merged = new Map<string, Record<string, string | number>>();
    for (const row of rows) {
      if (table === 'lander_daily' && row.lander === '') continue;
      const id = keys.map((k) => row[k]).join('\u0000');
      const known = merged.get(id);
      if (known) for (const c of columns) known[c] = Number(known[c]) + (row[c] ?? 0);
      else merged.set(id, { ...Object.fromEntries(keys.map((k) => [k, row[k]])), ...Object.fromEntries(columns.map((c) => [c, row[c] ?? 0])) });
    }
    if (!merged.size) continue;
    // In key order: two runtimes writing the same rows never wait on each other in a circle (PostgreSQL).
    const values = [...merged.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, v]) => v);
    await db
      .insertInto(table)
      .values(values as never)
      .onConflict((oc) => oc.columns([...keys] as never).doUpdateSet(Object.fromEntries(columns.map((c) => [c, sql`${sql.ref(`${table}.${c}`)} + ${sql.ref(`excluded.${c}`)}`])) as never))
      .execute();
  }
}

type Step = { successes: number; trials: number };
const ratio = (part: number, whole: number) => (whole > 0 ? part / whole : null);
const addDays = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** Money of one currency: never added to another currency's. */
export interface Money {
  currency: string;
  /** Cents of purchases (first and further). */
  revenue: number;
  refunded: number;
  charged_back: number;
  /** revenue - refunded - charged_back. */
  net: number;
  /** net / signups, in cents (rounded); null without signups. */
  net_per_signup: number | null;
}

/**
 * Traffic attribution, counting and the console's figures (issue 23): the attribution cookie and
 * the variant a visitor sees, the visits (batched), the member events (in their transactions),
 * the sources and experiments tables, and ending a variant.
 */
export function createTrafficService(deps: { db: Kysely<Database>; bus: EventBus; production: boolean; tenants: () => Tenant[]; now?: () => Date; log?: (line: string) => void; landers?: (tenantId: string) => LanderManifest[] }) {
  const { db, bus } = deps;
  const now = () => deps.now?.() ?? new Date();
  const tenantOf = (id: string) => deps.tenants().find((t) => t.id === id);
  /** The brand's calendar day, worked out once a minute per time zone (every lander visit needs it; a day begins on a minute in every zone). */
  const days = new Map<string, { minute: number; day: string }>();
  const today = (tenant: Tenant) => {
    const at = now();
    const minute = Math.floor(at.getTime() / 60_000);
    let known = days.get(tenant.timezone);
    if (known?.minute !== minute) days.set(tenant.timezone, (known = { minute, day: brandDate(at, tenant.timezone) }));
    return known.day;
  };

  // ---- Visits: counted in memory, written once a second -------------------------------------
  const pending = new Map<string, FunnelKey & { visits: number }>();
  let flushing: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;

  function flush(): Promise<void> {
    if (timer) clearTimeout(timer), (timer = undefined);
    if (!pending.size) return flushing;
    const rows = [...pending.values()];
    pending.clear();
    // One write at a time.
    flushing = flushing.then(async () => {
      try {
        for (let i = 0; i < rows.length; i += 200) await bump(db, rows.slice(i, i + 200), ['visits']);
      } catch (error) {
        deps.log?.(`traffic: ${rows.length} visit counts could not be written: ${(error as Error).message}`);
      }
    });
    return flushing;
  }

  function countVisit(key: FunnelKey): void {
    const id = KEY_COLUMNS.map((k) => key[k]).join('\u0000');
    const known = pending.get(id);
    if (known) known.visits++;
    else pending.set(id, { ...key, visits: 1 });
    timer ??= setTimeout(() => void flush(), VISIT_FLUSH_MS).unref();
  }

  const attributionCookie = (a: Attribution) => serializeCookie(ATTRIBUTION_COOKIE, writeAttribution(a), { maxAgeSeconds: ATTRIBUTION_DAYS * 86_400, httpOnly: true, secure: deps.production, sameSite: 'Lax' });

  // ---- Ended variants: cached, dropped when another process ends one ----------------------
  const ended = new Map<string, { at: number; names: Promise<Set<string>> }>();
  bus.subscribe(ENDED_TOPIC, (event) => void ended.delete((event as { tenant?: string }).tenant ?? ''));

  function endedVariants(tenantId: string): Promise<Set<string>> {
    const known = ended.get(tenantId);
    // The bus drops it at once when any runtime ends a variant; read again after ENDED_CACHE_MS
    // all the same (a runtime that did not hear: SQLite processes have no bus between them).
    if (known && Date.now() - known.at < ENDED_CACHE_MS) return known.names;
    const names = db
      .selectFrom('lander_variant_ends')
      .select('variant')
      .where('tenant_id', '=', tenantId)
      .execute()
      .then((rows) => new Set(rows.map((r) => r.variant)));
    ended.set(tenantId, { at: Date.now(), names });
    names.catch(() => ended.delete(tenantId));
    return names;
  }

  // ---- Members' events ---------------------------------------------------------------------
  const countMember: CountMemberEvent = async (trx, userId, event) => {
    const user = await trx.selectFrom('users').select(['tenant_id', 'tracking', 'lander', 'lander_variant', 'lander_niche', 'lander_locale']).where('id', '=', userId).executeTakeFirst();
    const tenant = user && tenantOf(user.tenant_id);
    if (!user || !tenant) return;
    const tracking = (user.tracking ? JSON.parse(user.tracking) : {}) as Tracking;
    const { currency, add } = counts(event);
    const key: FunnelKey = {
      tenant_id: user.tenant_id,
      day: today(tenant),
      lander: user.lander ?? '',
      variant: user.lander_variant ?? '',
      niche: user.lander_niche ?? 0,
      locale: user.lander_locale ?? '',
      network: tracking.network ?? '',
      ref: tracking.ref ?? '',
      currency,
    };
    await bump(trx, [{ ...key, ...add }], Object.keys(add) as FunnelCounter[]);
  };

  /** The brands a figure may come from: the one asked for, or every brand in the staff member's scope. */
  function brandsFor(staff: StaffView, brand: string | undefined): string[] {
    const brands = brandsToQuery(staff, brand);
    return brand ? [brand] : deps.tenants().map((t) => t.id).filter((id) => amongBrands(brands, id));
  }

  /** The days asked for; by default the last `fallbackDays` up to the latest of the brands' today (their time zones), or all. */
  function range(input: { from?: string; to?: string }, brands: string[], fallbackDays: number | null): { from: string | null; to: string | null } {
    const latest = brands.map((id) => tenantOf(id)).reduce((day, t) => (t && today(t) > day ? today(t) : day), now().toISOString().slice(0, 10));
    const to = input.to ?? (fallbackDays === null ? null : latest);
    const from = input.from ?? (fallbackDays === null || !to ? null : addDays(to, -(fallbackDays - 1)));
    if (from && to && from > to) throw new AppError('invalid_input', 400, { key: 'error_bad_request', field: 'from' });
    if (from && to && Date.parse(to) - Date.parse(from) > MAX_RANGE_DAYS * 86_400_000) throw new AppError('invalid_input', 400, { key: 'error_bad_request', field: 'to' });
    return { from, to };
  }

  function money(rows: { currency: string; revenue: number; refunded: number; charged_back: number }[], signups: number): Money[] {
    return rows
      .filter((r) => r.currency !== '')
      .sort((a, b) => a.currency.localeCompare(b.currency))
      .map((r) => {
        const net = r.revenue - r.refunded - r.charged_back;
        return { currency: r.currency, revenue: r.revenue, refunded: r.refunded, charged_back: r.charged_back, net, net_per_signup: signups > 0 ? Math.round(net / signups) : null };
      });
  }

  const sums = (eb: any) => [
    eb.fn.sum('visits').as('visits'),
    eb.fn.sum('signups').as('signups'),
    eb.fn.sum('activations').as('activations'),
    eb.fn.sum('first_purchases').as('first_purchases'),
    eb.fn.sum('repeat_purchases').as('repeat_purchases'),
    eb.fn.sum('refunds').as('refunds'),
    eb.fn.sum('chargebacks').as('chargebacks'),
    eb.fn.sum('revenue').as('revenue'),
    eb.fn.sum('refunded').as('refunded'),
    eb.fn.sum('charged_back').as('charged_back'),
  ];
  type Sums = Record<FunnelCounter, number>;
  /** A grouped row with its sums as numbers (PostgreSQL answers sums as strings). */
  const numbers = <Dims>(row: Record<string, unknown>): Dims & Sums => {
    const out: Record<string, unknown> = { ...row };
    for (const c of FUNNEL_COUNTERS) out[c] = Number(row[c] ?? 0);
    return out as Dims & Sums;
  };

  return {
    /**
     * A lander served to a visitor (DESIGN §8, before the static file is chosen): the variant of
     * its experiment the visitor sees (kept by the cookie's seed; ended variants are not given),
     * the visit counted unless it is no person's (`counted` false: a bot, a prefetch), and the
     * cookie (a Set-Cookie value) when it changed: the first visit's parameters win. The network
     * parameters go into the cookie only when the visitor accepted (`consent`, src/lib/consent.ts);
     * the visit is counted for the address's network all the same (a count is no cookie).
     */
    async land(tenant: Tenant, page: LanderManifest[string], input: { cookie: string | null; consent: ConsentChoice | null; query: URLSearchParams; counted: boolean }): Promise<{ variant: string; cookie: string | null }> {
      const known = readAttribution(input.cookie);
      const stopped = page.variants.length > 1 ? await endedVariants(tenant.id) : null;
      const offered = stopped?.size ? page.variants.filter((v) => v.name === CONTROL_VARIANT || !stopped.has(v.name)) : page.variants;
      // A bot, a prefetch: the control, and no cookie (a crawler sees the same page each time).
      if (!input.counted && !known) return { variant: CONTROL_VARIANT, cookie: null };
      // randomUUID draws from a pool node keeps (randomBytes asks the system every time): 122 random bits as 32 hex digits.
      const seed = known?.seed ?? randomUUID().replaceAll('-', '');
      const variant = offered.length > 1 ? pickVariant(seed, page.experiment, offered)! : CONTROL_VARIANT;
      if (!input.counted) return { variant, cookie: null };
      const consented = input.consent === 'accept';
      const visit = trackingOf(input.query);
      const { attribution, changed } = afterVisit(known, { tracking: visit, landing: { lander: page.lander, variant, niche: page.niche, locale: page.locale } }, () => seed, consented);
      const source = consented ? attribution.tracking : visit;
      countVisit({
        tenant_id: tenant.id,
        day: today(tenant),
        lander: page.lander,
        variant,
        niche: page.niche,
        locale: page.locale,
        network: source.network ?? '',
        ref: source.ref ?? '',
        currency: '',
      });
      return { variant, cookie: changed ? attributionCookie(attribution) : null };
    },

    /**
     * POST /api/consent.php: the visitor's choice on a lander's consent bar. Both choices are
     * remembered (CONSENT_COOKIE); accepting keeps the network parameters of the lander's address
     * (those the page sends, as the runtime would keep them) in the attribution cookie, first
     * visit winning; refusing drops any it holds. Answers the Set-Cookie values.
     */
    consent(input: { choice: ConsentChoice; tracking: Tracking; cookie: string | null }): string[] {
      const consented = input.choice === 'accept';
      const tracking = trackingOf(new URLSearchParams(Object.entries(input.tracking).filter((e): e is [string, string] => typeof e[1] === 'string')));
      const known = readAttribution(input.cookie);
      const { attribution, changed } = afterVisit(known, { tracking, landing: null }, () => randomUUID().replaceAll('-', ''), consented);
      const choice = serializeCookie(CONSENT_COOKIE, input.choice, { maxAgeSeconds: CONSENT_DAYS * 86_400, secure: deps.production, sameSite: 'Lax' });
      // Refused before any lander wrote a cookie: nothing to keep but the choice.
      return changed && (known || consented) ? [choice, attributionCookie(attribution)] : [choice];
    },

    /** The visits counted in memory, written now (before figures are read, and at shutdown). */
    flush,

    countMember,

    /**
     * GET /api/console/sources: per network and ref, visits, signups, activations (and their
     * rate), first and further purchases, refunds, chargebacks, and money per currency.
     */
    async sources(staff: StaffView, input: SourcesInput) {
      await flush();
      const brands = brandsFor(staff, input.brand);
      const { from, to } = range(input, brands, DEFAULT_DAYS);
      const rows = brands.length
        ? (
            await db
              .selectFrom('source_daily')
              .select((eb) => ['network', 'ref', 'currency', ...sums(eb)])
              .where('tenant_id', 'in', brands)
              .where('day', '>=', from!)
              .where('day', '<=', to!)
              .groupBy(['network', 'ref', 'currency'])
              .execute()
          ).map((r) => numbers<{ network: string; ref: string; currency: string }>(r))
        : [];
      const bySource = new Map<string, typeof rows>();
      for (const row of rows) bySource.set(`${row.network}\u0000${row.ref}`, [...(bySource.get(`${row.network}\u0000${row.ref}`) ?? []), row]);
      const sources = [...bySource.values()].map((group) => {
        const total = (c: FunnelCounter) => group.reduce((n, r) => n + r[c], 0);
        const signups = total('signups');
        return {
          network: group[0]!.network,
          ref: group[0]!.ref,
          visits: total('visits'),
          signups,
          activations: total('activations'),
          activation_rate: ratio(total('activations'), signups),
          first_purchases: total('first_purchases'),
          repeat_purchases: total('repeat_purchases'),
          refunds: total('refunds'),
          chargebacks: total('chargebacks'),
          money: money(group, signups),
        };
      });
      sources.sort((a, b) => b.visits - a.visits || b.signups - a.signups || a.network.localeCompare(b.network) || a.ref.localeCompare(b.ref));
      return { brand: input.brand ?? null, brands, from, to, sources };
    },

    /**
     * GET /api/console/experiments: per lander (niche, locale) and variant, the funnel with the
     * conversion of each step, its Wilson interval, and each variant's test against the control.
     */
    async experiments(staff: StaffView, input: ExperimentsInput) {
      await flush();
      const { from, to } = range(input, [input.brand], null);
      let q = db
        .selectFrom('lander_daily')
        .select((eb) => ['lander', 'niche', 'locale', 'variant', 'currency', ...sums(eb)])
        .where('tenant_id', '=', input.brand)
        .where('lander', '!=', '');
      if (from) q = q.where('day', '>=', from);
      if (to) q = q.where('day', '<=', to);
      type Dims = { lander: string; niche: number; locale: string; variant: string; currency: string };
      const rows = (await q.groupBy(['lander', 'niche', 'locale', 'variant', 'currency']).execute()).map((r) => numbers<Dims>(r));
      const stopped = await endedVariants(input.brand);
      const manifests = deps.landers?.(input.brand) ?? [];
      const weights = new Map<string, number>();
      for (const manifest of manifests) for (const page of Object.values(manifest)) if (page.variants.length > 1) for (const v of page.variants) weights.set(`${page.lander}\u0000${page.niche}\u0000${page.locale}\u0000${v.name}`, v.weight);
      // One row per lander, niche, locale and variant, its money per currency.
      const byVariant = new Map<string, typeof rows>();
      // The build's variants that have no counts yet are shown with zeros.
      for (const id of weights.keys()) {
        const [lander, niche, locale, variant] = id.split('\u0000');
        byVariant.set(id, [numbers<Dims>({ lander: lander!, niche: Number(niche), locale: locale!, variant: variant!, currency: '' })]);
      }
      for (const row of rows) {
        const id = `${row.lander}\u0000${row.niche}\u0000${row.locale}\u0000${row.variant}`;
        byVariant.set(id, [...(byVariant.get(id) ?? []), row]);
      }
      const variants = [...byVariant.entries()].map(([id, group]) => {
        const total = (c: FunnelCounter) => group.reduce((n, r) => n + r[c], 0);
        const first = group[0]!;
        return {
          lander: first.lander,
          niche: Number(first.niche),
          locale: first.locale,
          variant: first.variant,
          weight: weights.get(id) ?? null,
          ended: first.variant !== CONTROL_VARIANT && stopped.has(first.variant),
          visits: total('visits'),
          signups: total('signups'),
          activations: total('activations'),
          first_purchases: total('first_purchases'),
          money: money(group, total('signups')),
        };
      });
      // An experiment: a lander (niche, locale) shown in more than one variant, in the counts or the build.
      const experimentOf = (v: { lander: string; niche: number; locale: string }) => `${v.lander}\u0000${v.niche}\u0000${v.locale}`;
      // An experiment of the build is shown once it has counts in the range (its variants without any as zeros).
      const counted = new Set(rows.map((r) => experimentOf(r)));
      const running = new Set([...weights.keys()].map((k) => k.split('\u0000').slice(0, 3).join('\u0000')).filter((k) => counted.has(k)));
      for (const r of rows) if (r.variant !== CONTROL_VARIANT) running.add(experimentOf(r));
      const steps = (v: (typeof variants)[number]) => ({
        signup: { successes: v.signups, trials: v.visits },
        activation: { successes: v.activations, trials: v.signups },
        first_purchase: { successes: v.first_purchases, trials: v.activations },
      });
      /** A step's conversion, its interval, and its test against the control's. */
      const conversion = (own: Step, control: Step | null) => {
        // A step's events are counted on their own day: in a short range more may arrive than started.
        const x = Math.min(own.successes, own.trials);
        const test = control ? twoProportionTest(Math.min(control.successes, control.trials), control.trials, x, own.trials) : null;
        return { rate: ratio(x, own.trials), interval: wilsonInterval(x, own.trials), versus_control: test ? { z: test.z, p: test.p, significant: test.p < SIGNIFICANCE } : null };
      };
      const experiments = [...running].sort().map((key) => {
        const members = variants.filter((v) => experimentOf(v) === key).sort((a, b) => (a.variant === CONTROL_VARIANT ? -1 : b.variant === CONTROL_VARIANT ? 1 : a.variant.localeCompare(b.variant)));
        const control = members.find((v) => v.variant === CONTROL_VARIANT);
        const [lander, niche, locale] = key.split('\u0000');
        return {
          lander: lander!,
          niche: Number(niche),
          locale: locale!,
          variants: members.map((v) => {
            const own = steps(v);
            const base = control && v !== control ? steps(control) : null;
            return {
              ...v,
              conversion: {
                signup: conversion(own.signup, base?.signup ?? null),
                activation: conversion(own.activation, base?.activation ?? null),
                first_purchase: conversion(own.first_purchase, base?.first_purchase ?? null),
              },
            };
          }),
        };
      });
      return { brand: input.brand, from, to, method: EXPERIMENT_METHOD, experiments };
    },

    /** POST /api/console/experiments/end: visitors are no longer sent to the variant, on every runtime at once. Audited. */
    async endVariant(staff: StaffView, brand: string, variant: string, ip: string): Promise<{ variant: string; ended_at: string }> {
      if (variant === CONTROL_VARIANT) throw new AppError('experiment_control', 400, { field: 'variant' });
      const known = (deps.landers?.(brand) ?? []).some((manifest) => Object.values(manifest).some((page) => page.variants.some((v) => v.name === variant)));
      if (!known) throw notFound();
      const at = await db.transaction().execute(async (trx) => {
        const before = await trx.selectFrom('lander_variant_ends').select('ended_at').where('tenant_id', '=', brand).where('variant', '=', variant).executeTakeFirst();
        if (before) return before.ended_at;
        const endedAt = nowIso();
        await trx.insertInto('lander_variant_ends').values({ tenant_id: brand, variant, ended_at: endedAt, staff_id: staff.id }).execute();
        await audit(trx, { staff, action: 'variant_end', brand, object: { type: 'lander_variant', id: variant }, ip });
        return endedAt;
      });
      ended.delete(brand);
      await bus.publish(ENDED_TOPIC, { tenant: brand });
      return { variant, ended_at: at };
    },

    async close(): Promise<void> {
      await flush();
    },
  };
}

export type TrafficService = ReturnType<typeof createTrafficService>;
export type { Attribution };
