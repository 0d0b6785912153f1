import type { Kysely } from 'kysely';
import type { Database } from '../src/server/db/schema.ts';
import { normaliseCode } from '../src/server/services/discounts.ts';
import { PAYMENT_METHOD_IDS } from '../src/lib/payment-methods.ts';
import { grant, spend } from '../src/server/ledger.ts';

/** A member of a brand by id or e-mail address, or a sentence saying why not. */
export async function findMember(db: Kysely<Database>, brand: string, who: string): Promise<{ id: number; email: string } | string> {
  const byId = /^\d+$/.test(who);
  const row = await db
    .selectFrom('users')
    .select(['id', 'email'])
    .where('tenant_id', '=', brand)
    .where(byId ? 'id' : 'email', '=', byId ? Number(who) : who.trim().toLowerCase())
    .executeTakeFirst();
  return row ?? `no member ${who} on ${brand}`;
}

export interface DiscountOptions {
  code: string;
  percentage?: number;
  value?: number;
  currency?: string;
  minimum?: number;
  country?: string;
  expires?: string;
  methods?: string;
}

/**
 * A brand's campaign code (`sitegen discount create`): a percentage, or a value in cents with a
 * currency; answers the problems of the options, or nothing when it was created.
 */
export async function createDiscountCode(db: Kysely<Database>, brand: string, opts: DiscountOptions): Promise<string[]> {
  const problems: string[] = [];
  const code = normaliseCode(opts.code);
  if (!/^[A-Z0-9-]{3,40}$/.test(code)) problems.push('--code: 3 to 40 letters, digits or dashes');
  if ((opts.percentage === undefined) === (opts.value === undefined)) problems.push('give either --percentage or --value');
  if (opts.percentage !== undefined && !(Number.isInteger(opts.percentage) && opts.percentage > 0 && opts.percentage <= 90)) problems.push('--percentage: a whole number from 1 to 90');
  if (opts.value !== undefined && !(Number.isInteger(opts.value) && opts.value > 0)) problems.push('--value: cents, a whole number above 0');
  if (opts.value !== undefined && !opts.currency) problems.push('--value needs --currency');
  if (opts.minimum !== undefined && !opts.currency) problems.push('--minimum needs --currency (the minimum is in that currency)');
  if (opts.currency && !/^[A-Z]{3}$/.test(opts.currency)) problems.push('--currency: an ISO 4217 code such as EUR');
  if (opts.country && !/^[A-Z]{2}$/.test(opts.country)) problems.push('--country: an ISO 3166 code such as NL');
  // A date alone is valid through that whole day (UTC).
  const expires = opts.expires ? new Date(/^\d{4}-\d{2}-\d{2}$/.test(opts.expires) ? `${opts.expires}T23:59:59.999Z` : opts.expires) : null;
  if (expires && Number.isNaN(expires.getTime())) problems.push('--expires: a date such as 2026-12-31');
  const methods = opts.methods?.split(',').map((m) => m.trim()).filter(Boolean) ?? null;
  const unknown = methods?.filter((m) => !(PAYMENT_METHOD_IDS as string[]).includes(m)) ?? [];
  if (unknown.length) problems.push(`--methods: unknown ${unknown.join(', ')}`);
  if (problems.length) return problems;
  const taken = await db.selectFrom('discount_codes').select('id').where('tenant_id', '=', brand).where('code', '=', code).executeTakeFirst();
  if (taken) return [`${code} exists on ${brand}`];
  await db
    .insertInto('discount_codes')
    .values({
      tenant_id: brand,
      code,
      percentage: opts.percentage ?? null,
      value: opts.value ?? null,
      currency: opts.currency ?? null,
      minimum_order_value: opts.minimum ?? 0,
      country: opts.country ?? null,
      expires_at: expires?.toISOString() ?? null,
      paymentmethods: methods ? JSON.stringify(methods) : null,
    })
    .execute();
  return [];
}

/**
 * An operator's grant (credits > 0, reason bonus) or refund (credits < 0, reason refund) through
 * the ledger, with who and why as the entry's note; a refund never takes the balance below 0.
 */
export async function moveCredits(db: Kysely<Database>, brand: string, who: string, credits: number, reason: string, by: string): Promise<{ email: string; balance: number } | string> {
  const member = await findMember(db, brand, who);
  if (typeof member === 'string') return member;
  if (!reason.trim()) return '--reason must say why';
  const move = { userId: member.id, credits: Math.abs(credits), ref: `op:${crypto.randomUUID()}`, note: `${reason.trim()} (${by})` };
  if (credits > 0) return { email: member.email, balance: (await grant(db, { ...move, reason: 'bonus' })).balance };
  try {
    return { email: member.email, balance: (await spend(db, { ...move, reason: 'refund' })).balance };
  } catch (error) {
    if ((error as { status?: number }).status !== 402) throw error;
    const { credits: balance } = await db.selectFrom('users').select('credits').where('id', '=', member.id).executeTakeFirstOrThrow();
    return `${member.email} has ${balance} credits; a refund of ${-credits} would take the balance below 0`;
  }
}
