/**
 * What a credit bundle costs on the screen and at the checkout (SPEC §2 credit packages, §3
 * payment country, §4 discount code): one rule prices a bundle for a member's country and method,
 * less a code; the badge states the saving per credit against the base bundle in that currency.
 */
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { baseBundle, bundlePrice, savingPercent } from '../../src/lib/bundle-price.ts';
import { TIME_BONUS, type DiscountView } from '../../src/lib/discounts.ts';

const code = (over: Partial<DiscountView>): DiscountView => ({
  code: 'X', percentage: null, value: null, currency: null, minimum_order_value: 0, country: null, user_id: null, expires: null, status: 'active', validity: null, expired: false, paymentmethods: null, kind: 'campaign', ...over,
});
const timeBonus = code({ code: TIME_BONUS.code, percentage: TIME_BONUS.percentage, kind: 'time_bonus' });
// velvet's bundles (tenants/velvet/tenant.json).
const taste = { credits: 40, price: 1299, currency: 'EUR', prices: { GBP: 1099, CHF: 1299 } };
const evening = { credits: 120, price: 2999, currency: 'EUR', prices: { GBP: 2599, CHF: 2899 } };
const weekend = { credits: 320, price: 6499, currency: 'EUR', prices: { GBP: 5499, CHF: 6299 } };

describe('a bundle priced for a member', () => {
  test('in the currency of the payment country; direct debit in euros', () => {
    expect(bundlePrice(evening, { country: 'GB', method: 'visa' })).toEqual({ currency: 'GBP', list: 2599, amount: 2599, perCredit: 22, notApplicable: null });
    expect(bundlePrice(evening, { country: 'GB', method: 'sdd' })).toMatchObject({ currency: 'EUR', list: 2999, amount: 2999 });
    expect(bundlePrice(evening, { country: 'DE' })).toMatchObject({ currency: 'EUR', list: 2999 });
    expect(bundlePrice({ credits: 10, price: 999, currency: 'GBP' }, { country: 'GB', method: 'sdd' })).toBeNull();
  });

  test('less a code where it applies: the amount, and the per-credit price after it', () => {
    // The time bonus on a GB member's evening bundle: £25.99 less 25% is £19.49, about £0.16 a credit.
    expect(bundlePrice(evening, { country: 'GB', method: 'visa' }, timeBonus)).toEqual({ currency: 'GBP', list: 2599, amount: 1949, perCredit: 16, notApplicable: null });
    // A euro code does not apply to pounds: the list price stands, and says why.
    const euros = code({ value: 500, currency: 'EUR' });
    expect(bundlePrice(evening, { country: 'GB', method: 'visa' }, euros)).toMatchObject({ amount: 2599, notApplicable: 'currency' });
    expect(bundlePrice(evening, { country: 'GB', method: 'sdd' }, euros)).toMatchObject({ currency: 'EUR', amount: 2499, perCredit: 21, notApplicable: null });
    expect(bundlePrice(evening, { country: 'GB', method: 'visa' }, code({ percentage: 10, paymentmethods: ['paypal'] }))).toMatchObject({ amount: 2599, notApplicable: 'method' });
  });

  test('what the member pays is never more than the list price, and the list less the amount is what the code takes off', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000 }), fc.integer({ min: 1, max: 1_000_000 }), fc.integer({ min: 1, max: 90 }), (credits, price, percentage) => {
        const priced = bundlePrice({ credits, price, currency: 'EUR' }, { country: 'NL', method: 'ideal' }, code({ percentage }))!;
        return priced.amount <= priced.list && priced.list - priced.amount === Math.max(0, Math.min(Math.round((price * percentage) / 100), price - Math.min(price, 100)));
      }),
    );
  });
});

describe('the saving a badge states', () => {
  const list = (pack: typeof evening, country: string) => ({ credits: pack.credits, list: bundlePrice(pack, { country })!.list });
  test("per credit against the base bundle, in the member's currency", () => {
    // velvet in pounds: £0.2166 against £0.2748 a credit is 21% less, £0.1718 is 37% less.
    expect(savingPercent(list(evening, 'GB'), list(taste, 'GB'))).toBe(21);
    expect(savingPercent(list(weekend, 'GB'), list(taste, 'GB'))).toBe(37);
    // …in euros 23% and 37%, in francs 26% and 39%: each currency's own prices.
    expect(savingPercent(list(evening, 'DE'), list(taste, 'DE'))).toBe(23);
    expect(savingPercent(list(weekend, 'DE'), list(taste, 'DE'))).toBe(37);
    expect(savingPercent(list(evening, 'CH'), list(taste, 'CH'))).toBe(26);
    expect(savingPercent(list(weekend, 'CH'), list(taste, 'CH'))).toBe(39);
    // spetter's badges (20% and 33%) are what its prices save.
    expect(savingPercent({ credits: 125, list: 2999 }, { credits: 50, list: 1499 })).toBe(20);
    expect(savingPercent({ credits: 300, list: 5999 }, { credits: 50, list: 1499 })).toBe(33);
  });

  test('the base bundle saves nothing, and a dearer credit is no saving', () => {
    expect(savingPercent(list(taste, 'GB'), list(taste, 'GB'))).toBe(0);
    expect(savingPercent({ credits: 100, list: 5000 }, { credits: 50, list: 1000 })).toBe(0);
    expect(baseBundle([list(evening, 'GB'), list(taste, 'GB'), list(weekend, 'GB')])).toEqual(list(taste, 'GB'));
    expect(baseBundle([])).toBeUndefined();
  });
});
