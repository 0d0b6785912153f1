/**
 * Traffic attribution and lander experiments (issue 23): the attribution cookie's bounds and its
 * first-visit rule, the weighted and stable assignment of a variant, what counts as a person's
 * visit, the checks of a brand's variant files, and the statistics the console shows (Wilson's
 * interval and the two-proportion z-test) against published values.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { afterVisit, pickVariant, readAttribution, trackingOf, writeAttribution, isPageVisit, type Attribution } from '../../src/lib/attribution.ts';
import { twoProportionTest, wilsonInterval } from '../../src/lib/stats.ts';
import { ASK_CONSENT_CLASS, CONSENT_COOKIE, CONSENT_HINT_SCRIPT, addressTracking, withTracking } from '../../src/lib/consent.ts';
import { readLanderFolder } from '../../src/tenant/landers.ts';

const visit = (query: string) => ({ tracking: trackingOf(new URLSearchParams(query)), landing: null });

describe('the attribution cookie', () => {
  test('keeps the network\'s parameters as sent; a value too long, or with control or other characters, is dropped, never cut', () => {
    const long = 'a'.repeat(5000);
    expect(trackingOf(new URLSearchParams({ network: 'daisycon', ref: 'r-77', sub1: long, sub2: 'x\u0001y', sub3: 'a b', clickid: 'Cj0KCQ_abc.123~z' }))).toEqual({ network: 'daisycon', ref: 'r-77', clickid: 'Cj0KCQ_abc.123~z' });
    expect(trackingOf(new URLSearchParams({ sub1: 'a'.repeat(200) })).sub1).toHaveLength(200);
    expect(trackingOf(new URLSearchParams({ sub1: 'a'.repeat(201) }))).toEqual({});
    expect(trackingOf(new URLSearchParams({ sub1: '<script>' }))).toEqual({});
  });

  test('reads back what it wrote, and drops what was edited', () => {
    const a: Attribution = { seed: 'abcdef0123456789', tracking: { network: 'tradetracker', sub1: 'banner-3' }, landing: { lander: 'alonetonight', variant: 'direct', niche: 1, locale: 'nl' } };
    expect(readAttribution(writeAttribution(a))).toEqual(a);
    expect(readAttribution('s=abcdef0123456789&sub2=%3Cb%3E&l=alone%20tonight&v=x&n=1&lc=nl')).toEqual({ seed: 'abcdef0123456789', tracking: {}, landing: null });
    expect(readAttribution('s=short')).toBeNull();
    expect(readAttribution('garbage')).toBeNull();
    expect(readAttribution(null)).toBeNull();
    fc.assert(fc.property(fc.string(), (text) => { readAttribution(text); }));
  });

  test('the first visit wins: its parameters stay (never mixed with a later visit\'s), and the first lander seen', () => {
    const seed = () => 'abcdef0123456789';
    const first = afterVisit(null, visit('network=a&ref=1'), seed);
    expect(first).toMatchObject({ changed: true, attribution: { seed: 'abcdef0123456789', tracking: { network: 'a', ref: '1' } } });
    const later = afterVisit(first.attribution, visit('network=b&sub1=x'), seed);
    expect(later).toEqual({ changed: false, attribution: first.attribution });
    // Nothing before: a later visit's parameters are taken, and the lander seen is kept once.
    const organic = afterVisit(null, { tracking: {}, landing: { lander: 'video', variant: 'control', niche: 1, locale: 'nl' } }, seed).attribution;
    const tagged = afterVisit(organic, { tracking: { network: 'b' }, landing: { lander: 'gallery', variant: 'control', niche: 2, locale: 'nl' } }, seed);
    expect(tagged).toEqual({ changed: true, attribution: { seed: 'abcdef0123456789', tracking: { network: 'b' }, landing: organic.landing } });
  });

  test('without the visitor\'s consent no network parameter is kept: none taken, those held dropped; the seed and landing stay', () => {
    const seed = () => 'abcdef0123456789';
    const landing = { lander: 'video', variant: 'control', niche: 1, locale: 'nl' };
    expect(afterVisit(null, { tracking: { network: 'a', clickid: 'c' }, landing }, seed, false)).toEqual({ changed: true, attribution: { seed: 'abcdef0123456789', tracking: {}, landing } });
    const asked = afterVisit(null, { tracking: {}, landing }, seed, false).attribution;
    expect(afterVisit(asked, visit('network=a'), seed, false)).toEqual({ changed: false, attribution: asked });
    const held = { seed: 'abcdef0123456789', tracking: { network: 'a' }, landing };
    expect(afterVisit(held, visit('network=b'), seed, false)).toEqual({ changed: true, attribution: { ...held, tracking: {} } });
    // Accepted later: the parameters of the address the visitor accepted on are taken.
    expect(afterVisit(asked, visit('network=a&clickid=c'), seed, true)).toEqual({ changed: true, attribution: { ...asked, tracking: { network: 'a', clickid: 'c' } } });
  });
});

describe('the consent bar\'s page side (src/lib/consent.ts)', () => {
  test('the address\'s parameters as the runtime keeps them, added to a link to the signup', () => {
    const search = `?network=adnet&clickid=ck.1~x&ref=${encodeURIComponent('"><b>')}&sub1=${'a'.repeat(201)}&other=1`;
    expect(addressTracking(search)).toEqual(trackingOf(new URLSearchParams(search)));
    expect(addressTracking(search)).toEqual({ network: 'adnet', clickid: 'ck.1~x' });
    expect(withTracking('/signup', addressTracking(search))).toBe('/signup?network=adnet&clickid=ck.1%7Ex');
    expect(withTracking('/signup?x=1', { network: 'n' })).toBe('/signup?x=1&network=n');
  });

  test('the head\'s hint asks only with a parameter the runtime would keep, and only before a choice', () => {
    const run = (search: string, cookie: string) => {
      const classes = new Set<string>();
      new Function('location', 'document', CONSENT_HINT_SCRIPT)({ search }, { cookie, documentElement: { classList: { add: (c: string) => classes.add(c) } } });
      return classes.has(ASK_CONSENT_CLASS);
    };
    expect(run('?network=adnet', '')).toBe(true);
    expect(run('?clickid=abc', 'signed_in=x')).toBe(true);
    expect(run('', '')).toBe(false);
    expect(run(`?network=${encodeURIComponent('<b>')}`, '')).toBe(false);
    expect(run('?network=adnet', `${CONSENT_COOKIE}=refuse`)).toBe(false);
    expect(run('?network=adnet', `a=1; ${CONSENT_COOKIE}=accept`)).toBe(false);
  });
});

describe('a visitor\'s variant', () => {
  const seeds = Array.from({ length: 20_000 }, (_, i) => `seed${i.toString(36).padStart(8, '0')}`);
  const share = (variants: { name: string; weight: number }[], name: string) => seeds.filter((s) => pickVariant(s, 'exp', variants) === name).length / seeds.length;

  test('by weight: 1:1 about half each, 3:1 about three quarters', () => {
    expect(share([{ name: 'control', weight: 1 }, { name: 'b', weight: 1 }], 'b')).toBeCloseTo(0.5, 1);
    expect(share([{ name: 'control', weight: 3 }, { name: 'b', weight: 1 }], 'control')).toBeCloseTo(0.75, 1);
    expect(share([{ name: 'control', weight: 1 }, { name: 'b', weight: 1 }, { name: 'c', weight: 2 }], 'c')).toBeCloseTo(0.5, 1);
  });

  test('the same for the same visitor every time; ending a variant moves only its own visitors', () => {
    const three = [{ name: 'control', weight: 1 }, { name: 'b', weight: 1 }, { name: 'c', weight: 1 }];
    const two = three.filter((v) => v.name !== 'c');
    for (const seed of seeds.slice(0, 2000)) {
      const before = pickVariant(seed, 'exp', three);
      expect(pickVariant(seed, 'exp', three)).toBe(before);
      if (before !== 'c') expect(pickVariant(seed, 'exp', two)).toBe(before);
    }
    // Another experiment draws anew: the same visitor is not always on the second variant.
    const names = new Set(seeds.slice(0, 50).map((s) => `${pickVariant(s, 'exp', two)}${pickVariant(s, 'other', two)}`));
    expect(names.size).toBeGreaterThan(2);
    expect(pickVariant('x'.repeat(16), 'exp', [])).toBeUndefined();
  });
});

test('a lander visit is a person\'s: not a crawler, a link preview, a script without user agent or a prefetch', () => {
  const chrome = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
  expect(isPageVisit({ 'user-agent': chrome })).toBe(true);
  expect(isPageVisit({ 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' })).toBe(false);
  expect(isPageVisit({ 'user-agent': 'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)' })).toBe(false);
  expect(isPageVisit({ 'user-agent': 'curl/8.5.0' })).toBe(false);
  expect(isPageVisit({})).toBe(false);
  expect(isPageVisit({ 'user-agent': chrome, 'sec-purpose': 'prefetch;prerender' })).toBe(false);
});

describe('lander variant files (sitegen check)', () => {
  const folder = (files: Record<string, string>) => {
    const dir = mkdtempSync(join(tmpdir(), 'landers-'));
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    try {
      return readLanderFolder(dir, 'tenants/x/landers');
    } finally {
      rmSync(dir, { recursive: true });
    }
  };
  const text = (front: string) => `---\nlander: video\nlocale: nl\nheadline: Kop\ncta: Nu\n${front}---\nTekst`;

  test('a control with variants by weight is valid', () => {
    const { variants, errors } = folder({ 'video.nl.md': text(''), 'video-b.nl.md': text('variant: b\nweight: 3\n') });
    expect(errors).toEqual([]);
    expect(variants.map((v) => [v.variant, v.weight])).toEqual([['b', 3], ['control', 1]]);
  });

  test('refused: a weight of 0 or below, a name used twice, a variant without its control, a name that is no name', () => {
    expect(folder({ 'video.nl.md': text(''), 'video-b.nl.md': text('variant: b\nweight: 0\n') }).errors).toEqual(['tenants/x/landers/video-b.nl.md: weight: Too small: expected number to be >0']);
    expect(folder({ 'video.nl.md': text(''), 'video-b.nl.md': text('variant: b\n'), 'video-b2.nl.md': text('variant: b\n') }).errors).toEqual([
      'tenants/x/landers/video-b2.nl.md: variant: b is already the name of tenants/x/landers/video-b.nl.md (same lander, locale and niche); give each variant its own name',
    ]);
    expect(folder({ 'video-b.nl.md': text('variant: b\n') }).errors).toEqual([
      'tenants/x/landers/video-b.nl.md: variant: b has no control to be compared with: add a text of the same lander, locale and niche without variant (or variant: control)',
    ]);
    expect(folder({ 'video.nl.md': text(''), 'video-b.nl.md': text('variant: B C\n') }).errors[0]).toMatch(/^tenants\/x\/landers\/video-b\.nl\.md: variant: lower-case letters/);
  });
});

describe('the experiments\' statistics', () => {
  test('Wilson\'s 95% interval: Newcombe (1998) 81/263 is 0.2553-0.3662; 0/10 and 5/10; none without trials', () => {
    const close = (got: { low: number; high: number } | null, low: number, high: number) => {
      expect(got!.low).toBeCloseTo(low, 4);
      expect(got!.high).toBeCloseTo(high, 4);
    };
    close(wilsonInterval(81, 263), 0.2553, 0.3662);
    close(wilsonInterval(0, 10), 0, 0.2775);
    close(wilsonInterval(5, 10), 0.2366, 0.7634);
    close(wilsonInterval(10, 10), 0.7225, 1);
    expect(wilsonInterval(0, 0)).toBeNull();
  });

  test('the two-proportion z-test (pooled, two-sided): 30/100 against 45/100 is z 2.191, p 0.0285; equal rates p 1; no trials or no variance: none', () => {
    const t = twoProportionTest(30, 100, 45, 100)!;
    expect(t.z).toBeCloseTo(2.1909, 4);
    expect(t.p).toBeCloseTo(0.02846, 4);
    const u = twoProportionTest(200, 1000, 240, 1000)!;
    expect(u.z).toBeCloseTo(2.1592, 4);
    expect(u.p).toBeCloseTo(0.03084, 4);
    expect(twoProportionTest(10, 100, 10, 100)).toEqual({ z: 0, p: 1 });
    expect(twoProportionTest(1, 0, 1, 10)).toBeNull();
    expect(twoProportionTest(0, 10, 0, 10)).toBeNull();
  });
});
