import type { AstroGlobal } from 'astro';
import { creditsOffer } from '../lib/credits-offer.ts';
import { TIME_BONUS, timeBonusLeft, type DiscountView } from '../lib/discounts.ts';
import type { PackagesAnswer } from '../contract/payments.ts';

/** What the credits pages show: the same function as GET /api/packages.php (src/lib/credits-offer.ts). */
export function creditsOptions(astro: Pick<AstroGlobal, 'locals'>, method?: 'sdd'): PackagesAnswer {
  return creditsOffer(astro.locals, method);
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
  const member = { id: user.id, paid_user: user.paid_user, signup_date: user.signup_date };
  const named = astro.url.searchParams.get('code')?.trim();
  if (named && named.length <= 40) {
    try {
      return { code: await services.discounts.lookup(tenant, member, named), error: null };
    } catch (error) {
      // The runtime's services are not bundled with the page: a refusal is known by its status.
      const refusal = error as { status?: unknown; messageKey?: string } | null;
      if (typeof refusal?.status !== 'number') throw error;
      // An ended time bonus in an old link falls through to the welcome code.
      if (named.toUpperCase() !== TIME_BONUS.code) return { code: null, error: refusal.messageKey ?? 'discount_not_found' };
    }
  }
  if (timeBonusLeft(user, Date.now()) > 0) {
    const bonus = await services.discounts.lookup(tenant, member, TIME_BONUS.code).catch(() => null);
    if (bonus) return { code: bonus, error: null };
  }
  return { code: await services.discounts.welcome(tenant, member).catch(() => null), error: null };
}
