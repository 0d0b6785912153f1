import type { AstroGlobal } from 'astro';
import type { DiscountView } from '../lib/discounts.ts';
import { routeId } from '../lib/routes.ts';
import { creditsOffer } from '../lib/credits-offer.ts';
import type { PackageOption, PackagesAnswer } from '../contract/payments.ts';

/** What the credits pages show: the same function as GET /api/packages.php (src/lib/credits-offer.ts), less the code given. */
export function creditsOptions(astro: Pick<AstroGlobal, 'locals'>, method?: 'sdd', code?: DiscountView | null): PackagesAnswer {
  return creditsOffer(astro.locals, method, code);
}

/** The price premium starts at (SPEC §4 membership: the first purchase): the cheapest bundle in the member's currency, formatted. */
export function premiumFrom(astro: Pick<AstroGlobal, 'locals'>): string | null {
  const { packages } = creditsOptions(astro);
  const cheapest = packages.reduce<PackageOption | undefined>((low, p) => (low === undefined || p.amount < low.amount ? p : low), undefined);
  return cheapest?.price ?? null;
}

/**
 * The discount code the checkout starts with (SPEC §4): a code in the address (`?code=`, such as
 * the retention offer's link) if it is usable, else the time bonus while it runs (it takes
 * priority over the welcome code), else the member's welcome code. Failing to find one is
 * silent (SPEC §8), except for a code the address names: its refusal is shown.
 */
export async function activeDiscount(astro: Pick<AstroGlobal, 'locals' | 'url'>): Promise<{ code: DiscountView | null; /** The catalogue key of the refusal of the address's code. */ error: string | null }> {
  const { tenant, services, user } = astro.locals;
  if (!user) return { code: null, error: null };
  return services.discounts.active(tenant, { id: user.id, paid_user: user.paid_user, signup_date: user.signup_date }, astro.url.searchParams.get('code'));
}

/** A refusal of the runtime's services is known by its status (they are not bundled with the page). */
const unlessNotFound = <T>(promise: Promise<T>): Promise<T | null> =>
  promise.catch((error: { status?: number } | null) => (error?.status === 404 ? null : Promise.reject(error)));

/**
 * The return from the checkout (`?payment=<id>` on credits-id-paymentmethod): the member's payment
 * as the provider reports it now (the return may come before the webhook), and the member's
 * credits after it when it is paid. null: the address names none; a Response: 404.
 */
export async function paymentReturn(astro: Pick<AstroGlobal, 'locals' | 'url'>, paymentId: number | null) {
  const { services, user } = astro.locals;
  if (paymentId === null || !user) return null;
  const payment = await unlessNotFound(services.payments.refresh(user.id, paymentId));
  if (!payment) return new Response(null, { status: 404 });
  const credits = payment.status === 'paid' ? await services.transactions.balance(user.id) : user.credits;
  return { payment, credits };
}

/** The member's last purchase to repeat in one step, and the saved card (credits-repeat-order). */
export async function repeatOffer(astro: Pick<AstroGlobal, 'locals'>) {
  const { services, tenant, user } = astro.locals;
  return user ? services.payments.repeatOffer(tenant, { id: user.id, country: user.profile?.country ?? null }) : null;
}

/**
 * What the direct-debit page shows besides the bundle: the code the address names if it is
 * usable (none is applied otherwise) and the member's form (the block and the limit, SPEC §5).
 */
export async function directDebitPage(astro: Pick<AstroGlobal, 'locals' | 'url'>) {
  const { services, tenant, user } = astro.locals;
  if (!user) throw new Error('directDebitPage: a member page');
  const named = astro.url.searchParams.get('code')?.trim();
  const member = { id: user.id, paid_user: user.paid_user, signup_date: user.signup_date };
  const [discount, form] = await Promise.all([
    named && named.length <= 40 ? services.discounts.lookup(tenant, member, named).catch(() => null) : null,
    services.directDebit.form(user.id),
  ]);
  return { discount, form };
}

/**
 * The transactions page (transactions-id): with an id, the invoice of one of the member's
 * purchases; else a page of the ledger before `?before=`. A Response: 404.
 */
export async function transactionsPage(astro: Pick<AstroGlobal, 'locals' | 'url'>, id: number | null | undefined) {
  const { services, tenant, user } = astro.locals;
  if (!user) return new Response(null, { status: 404 });
  if (id !== undefined) {
    const invoice = id === null ? null : await unlessNotFound(services.transactions.invoice(tenant, user.id, id));
    return invoice ? { invoice, list: null } : new Response(null, { status: 404 });
  }
  const before = astro.url.searchParams.get('before');
  const beforeId = before === null ? null : routeId(before);
  if (before !== null && beforeId === null) return new Response(null, { status: 404 });
  return { invoice: null, list: await services.transactions.list(user.id, beforeId) };
}
