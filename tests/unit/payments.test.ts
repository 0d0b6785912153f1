/** The pure money rules of credits and payments: discounts, the time bonus clock, prices per country, VAT, Mollie amounts. */
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { discountCents, formatCountdown, notApplicable, timeBonusLeft, MINIMUM_CHARGE, TIME_BONUS, type DiscountView } from '../../src/lib/discounts.ts';
import { euroPrice, priceFor } from '../../src/lib/currencies.ts';
import { splitVat, vatFor } from '../../src/lib/vat.ts';
import { MOLLIE_METHODS, centsOf, mollieAmount } from '../../src/server/payments/mollie.ts';
import { PAYMENT_METHOD_IDS, acceptedMethods, methodsFor } from '../../src/lib/payment-methods.ts';
import { maskMobile } from '../../src/lib/directdebit.ts';

const code = (over: Partial<DiscountView>): DiscountView => ({
  code: 'X', percentage: null, value: null, currency: null, minimum_order_value: 0, country: null, user_id: null, expires: null, status: 'active', validity: null, expired: false, paymentmethods: null, kind: 'campaign', ...over,
});

describe('discounts', () => {
  test('a percentage is rounded once to the cent; a value only in its currency; never below the minimum charge', () => {
    expect(discountCents(code({ percentage: 25 }), 2999, 'EUR')).toBe(750);
    expect(discountCents(code({ percentage: 25 }), 1499, 'EUR')).toBe(375);
    expect(discountCents(code({ value: 500, currency: 'EUR' }), 2999, 'EUR')).toBe(500);
    expect(discountCents(code({ value: 500, currency: 'EUR' }), 2999, 'CHF')).toBe(0);
    expect(discountCents(code({ value: 5000, currency: 'EUR' }), 2999, 'EUR')).toBe(2999 - MINIMUM_CHARGE);
    expect(discountCents(code({ percentage: 90 }), 50, 'EUR')).toBe(0);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000_000 }), fc.integer({ min: 1, max: 90 }), (amount, percentage) => {
        const off = discountCents(code({ percentage }), amount, 'EUR');
        expect(Number.isInteger(off)).toBe(true);
        expect(off).toBeGreaterThanOrEqual(0);
        expect(amount - off).toBeGreaterThanOrEqual(Math.min(amount, MINIMUM_CHARGE));
      }),
    );
  });

  test('a code does not apply below its minimum, in another country, currency or method', () => {
    const order = { amount: 1499, currency: 'EUR', method: 'ideal', country: 'NL' };
    expect(notApplicable(code({ percentage: 10 }), order)).toBeNull();
    expect(notApplicable(code({ percentage: 10, minimum_order_value: 2000, currency: 'EUR' }), order)).toBe('minimum');
    expect(notApplicable(code({ percentage: 10, minimum_order_value: 1499, currency: 'EUR' }), order)).toBeNull();
    expect(notApplicable(code({ percentage: 10, country: 'BE' }), order)).toBe('country');
    expect(notApplicable(code({ value: 100, currency: 'CHF' }), order)).toBe('currency');
    expect(notApplicable(code({ percentage: 10, paymentmethods: ['visa'] }), order)).toBe('method');
  });

  test('the time bonus runs 14,400 s from signup for members who have not paid, shown as hh:mm:ss', () => {
    const signup = '2026-11-25T08:00:00.000Z';
    const at = (s: number) => Date.parse(signup) + s * 1000;
    expect(timeBonusLeft({ paid_user: false, signup_date: signup }, at(0))).toBe(TIME_BONUS.seconds);
    expect(timeBonusLeft({ paid_user: false, signup_date: signup }, at(14_399.5))).toBe(1);
    expect(timeBonusLeft({ paid_user: false, signup_date: signup }, at(14_400))).toBe(0);
    expect(timeBonusLeft({ paid_user: true, signup_date: signup }, at(10))).toBe(0);
    expect(timeBonusLeft(null, at(10))).toBe(0);
    expect(formatCountdown(14_400)).toBe('04:00:00');
    expect(formatCountdown(3_599)).toBe('00:59:59');
    expect(formatCountdown(61)).toBe('00:01:01');
    expect(formatCountdown(-3)).toBe('00:00:00');
  });
});

describe('prices, VAT and providers', () => {
  const pack = { price: 2999, currency: 'EUR', prices: { CHF: 2899, DKK: 22900 } };
  test("a package is priced in the payment country's currency when it names one; direct debit in euros", () => {
    expect(priceFor(pack, 'CH')).toEqual({ amount: 2899, currency: 'CHF' });
    expect(priceFor(pack, 'NL')).toEqual({ amount: 2999, currency: 'EUR' });
    expect(priceFor(pack, 'SE')).toEqual({ amount: 2999, currency: 'EUR' });
    expect(euroPrice(pack, 'CH')).toEqual({ amount: 2999, currency: 'EUR' });
    expect(euroPrice({ price: 2599, currency: 'GBP', prices: {} }, 'GB')).toBeNull();
    expect(euroPrice({ price: 2599, currency: 'GBP', prices: { EUR: 2999 } }, 'GB')).toEqual({ amount: 2999, currency: 'EUR' });
  });

  test("a country's own methods come first; a brand may set a country's list; never an empty list", () => {
    const ids = (brand: Parameters<typeof methodsFor>[0], country: string | null) => methodsFor(brand, country).map((m) => m.id);
    const all = { payment_methods: [...PAYMENT_METHOD_IDS] };
    expect(ids(all, 'NL').slice(0, 1)).toEqual(['ideal']);
    expect(ids(all, 'NL')).not.toContain('bancontact');
    expect(ids(all, 'BE').slice(0, 2)).toEqual(['sofort', 'bancontact']);
    expect(ids(all, null)).not.toContain('ideal');
    expect(ids({ ...all, country_payment_methods: { NL: ['ideal', 'paypal'] } }, 'NL')).toEqual(['ideal', 'paypal']);
    expect(ids({ payment_methods: ['ideal'] }, 'DE')).toEqual(['ideal']);
  });

  test('a brand accepts what its checkout offers in its countries, no more (the footer lists these)', () => {
    const all = { payment_methods: [...PAYMENT_METHOD_IDS] };
    const ids = (brand: Parameters<typeof acceptedMethods>[0]) => acceptedMethods(brand).map((m) => m.id);
    const union = (brand: Parameters<typeof acceptedMethods>[0]) => new Set(brand.countries.flatMap((c) => methodsFor(brand, c).map((m) => m.id)));
    const spetter = { ...all, countries: ['NL', 'BE'] };
    expect(new Set(ids(spetter))).toEqual(union(spetter));
    expect(ids(spetter).length).toBeLessThan(PAYMENT_METHOD_IDS.length);
    expect(ids(spetter)).toContain('ideal');
    expect(ids(spetter)).toContain('bancontact');
    expect(ids(spetter)).not.toContain('twint');
    expect(new Set(ids({ ...all, countries: ['NL'], country_payment_methods: { NL: ['ideal', 'paypal'] } }))).toEqual(new Set(['ideal', 'paypal']));
  });

  test("VAT follows the company's VAT number for the member's country, and its parts add up to the gross", () => {
    expect(vatFor(['NL862345678B01', 'BE0123456789'], 'BE')).toEqual({ number: 'BE0123456789', rate: 21 });
    expect(vatFor(['NL862345678B01'], 'DE')).toEqual({ number: 'NL862345678B01', rate: 21 });
    expect(vatFor(['DE123456789'], null)).toEqual({ number: 'DE123456789', rate: 19 });
    expect(vatFor([], 'NL')).toBeNull();
    expect(splitVat(2999, 21)).toEqual({ net: 2479, vat: 520 });
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), fc.constantFrom(8.1, 17, 19, 20, 21, 25, 25.5, 27), (gross, rate) => {
        const { net, vat } = splitVat(gross, rate);
        expect(net + vat).toBe(gross);
        expect(Number.isInteger(net)).toBe(true);
        expect(vat).toBeGreaterThanOrEqual(0);
      }),
    );
  });

  test("Mollie's amounts are exact strings; every method maps to Mollie's or to Mollie's own choice", () => {
    expect(mollieAmount(1499, 'EUR')).toEqual({ currency: 'EUR', value: '14.99' });
    expect(mollieAmount(5, 'EUR').value).toBe('0.05');
    expect(mollieAmount(100, 'CHF').value).toBe('1.00');
    expect(mollieAmount(123456789, 'EUR').value).toBe('1234567.89');
    expect(() => mollieAmount(12.5, 'EUR')).toThrow();
    // And back, for what Mollie reports refunded or charged back.
    for (const cents of [0, 5, 100, 1499, 123456789]) expect(centsOf(mollieAmount(cents, 'EUR'))).toBe(cents);
    expect(centsOf(undefined)).toBe(0);
    expect(centsOf({ value: '1.5' })).toBe(0);
    expect(Object.keys(MOLLIE_METHODS).sort()).toEqual([...PAYMENT_METHOD_IDS].sort());
    expect(MOLLIE_METHODS.sdd).toBe('directdebit');
    expect(MOLLIE_METHODS.sct).toBe('banktransfer');
    expect(MOLLIE_METHODS.visa).toBe('creditcard');
    expect(MOLLIE_METHODS.giropay).toBeNull();
    expect(maskMobile('+31612345678')).toBe('+31•••••5678');
  });
});

describe('sitegen check and payment keys', () => {
  test('a brand on Mollie without its key is named; with the key, or on the test provider, nothing', async () => {
    const { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { missingPaymentKeys } = await import('../../cli/check.ts');
    const { TENANTS_DIR } = await import('../support/runtime.ts');
    const dir = mkdtempSync(join(tmpdir(), 'sitegen-keys-'));
    try {
      cpSync(TENANTS_DIR, dir, { recursive: true });
      expect(missingPaymentKeys(dir, {})).toEqual([]);
      const file = join(dir, 'velvet', 'tenant.json');
      writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), payments: { provider: 'mollie', mollie_api_key_env: 'VELVET_MOLLIE' } }));
      expect(missingPaymentKeys(dir, {})).toEqual(['tenants/velvet/tenant.json: payments: the brand uses Mollie but VELVET_MOLLIE is not set; its payments fail until it is']);
      expect(missingPaymentKeys(dir, { VELVET_MOLLIE: 'live_x' })).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
