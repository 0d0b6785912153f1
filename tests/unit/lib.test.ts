/**
 * The pure rules of SPEC in src/lib, each tested beside the SPEC wording it implements.
 */
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HostIndex, resolveTenant, servesHost } from '../../src/tenant/resolve.ts';
import fc from 'fast-check';
import { landingSlug, NICHES, type Niche } from '../../src/lib/slugs.ts';
import { LOCALES, chooseLocale, visibleLocales, showLanguageDropdown, type Locale } from '../../src/lib/locales.ts';
import { registryKey } from '../../src/lib/company-registry.ts';
import { showEntryWarning, visibleBanners, stackBanners, BANNER_PRIORITY, type EntryWarningContext, type BannerContext, type BannerUser } from '../../src/lib/visibility.ts';
import { brandedTitle, countBadge, creditsBadge, titleWithCount } from '../../src/lib/badges.ts';
import { refreshPeriodSeconds, refreshSchedule } from '../../src/lib/refresh.ts';
import { termsVersionDate } from '../../src/lib/terms.ts';
import { ROUTES, matchRoute, routeId, safeNext, loginRedirect, loggedOutSearchAllowed } from '../../src/lib/routes.ts';
import { iconUrl, isIconId } from '../../src/lib/icons.ts';

// SPEC §2 'Landing slugs': "1 has no prefix, 2 she-, 3 bdsm-, 4 bbw-, 5 gilf-, 6 milf-, 7 gay-;
// each is followed by the locale, with en mapped to eng."
const SPEC_PREFIX: Record<number, string> = { 1: '', 2: 'she-', 3: 'bdsm-', 4: 'bbw-', 5: 'gilf-', 6: 'milf-', 7: 'gay-' };

describe('landing slugs (SPEC §2)', () => {
  it.each([
    [1, 'nl', 'nl'],
    [2, 'de', 'she-de'],
    [3, 'fr', 'bdsm-fr'],
    [4, 'it', 'bbw-it'],
    [5, 'pl', 'gilf-pl'],
    [6, 'en', 'milf-eng'],
    [7, 'sv', 'gay-sv'],
  ] as const)('niche %i in %s is /%s', (niche, locale, slug) => {
    expect(landingSlug(niche, locale)).toBe(slug);
  });

  it('writes en as eng, also for the US variant', () => {
    expect(landingSlug(1, 'en')).toBe('eng');
    expect(landingSlug(1, 'en-US')).toBe('eng');
    expect(landingSlug(6, 'en-US')).toBe('milf-eng');
    expect(landingSlug(7, 'en')).toBe('gay-eng');
  });

  it('knows exactly the niches 1 to 7', () => {
    expect([...NICHES].sort()).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('every slug is the niche prefix followed by the language (property)', () => {
    fc.assert(
      fc.property(fc.constantFrom(...NICHES), fc.constantFrom(...LOCALES), (niche, locale) => {
        const slug = landingSlug(niche, locale);
        const prefix = SPEC_PREFIX[niche]!;
        expect(slug.startsWith(prefix)).toBe(true);
        const rest = slug.slice(prefix.length);
        expect(rest).toBe(locale.startsWith('en') ? 'eng' : locale.slice(0, 2));
        expect(slug).toMatch(/^(?:[a-z]+-)?[a-z]{2,3}$/);
      }),
    );
  });

  it('two different niche and language pairs never share a slug (property)', () => {
    const language = (l: string) => l.slice(0, 2);
    fc.assert(
      fc.property(
        fc.constantFrom(...NICHES),
        fc.constantFrom(...LOCALES),
        fc.constantFrom(...NICHES),
        fc.constantFrom(...LOCALES),
        (n1, l1, n2, l2) => {
          const same = n1 === n2 && language(l1) === language(l2);
          expect(landingSlug(n1, l1) === landingSlug(n2, l2)).toBe(same);
        },
      ),
    );
  });
});

describe('locales per country (SPEC §1)', () => {
  const all = [...LOCALES] as Locale[];
  const sorted = (l: readonly string[]) => [...l].sort();

  // SPEC §1: "US en and es; NL nl; BE nl, fr and de; FR fr; IT it; ES es; DE and AT de; IE and GB en;
  // CA en and fr; PL pl; AU and NZ en; CH de, it, fr and en; DK da; FI fi and sv; NO nb; SE sv."
  it.each([
    ['US', ['en-US', 'es']],
    ['NL', ['nl']],
    ['BE', ['nl', 'fr', 'de']],
    ['FR', ['fr']],
    ['IT', ['it']],
    ['ES', ['es']],
    ['DE', ['de']],
    ['AT', ['de']],
    ['IE', ['en']],
    ['GB', ['en']],
    ['CA', ['en', 'fr']],
    ['PL', ['pl']],
    ['AU', ['en']],
    ['NZ', ['en']],
    ['CH', ['de', 'it', 'fr', 'en']],
    ['DK', ['da']],
    ['FI', ['fi', 'sv']],
    ['NO', ['nb']],
    ['SE', ['sv']],
  ])('a visitor from %s on a brand with every locale sees %j', (country, expected) => {
    expect(sorted(visibleLocales(all, country))).toEqual(sorted(expected));
  });

  it('keeps the brand order and only the brand locales', () => {
    expect(visibleLocales(['en', 'de', 'fr'], 'BE')).toEqual(['de', 'fr']);
    expect(visibleLocales(['en', 'de', 'fr'], 'CH')).toEqual(['en', 'de', 'fr']);
    expect(visibleLocales(['en', 'de', 'fr'], 'CA')).toEqual(['en', 'fr']);
  });

  it('accepts a lower-case country code', () => {
    expect(sorted(visibleLocales(all, 'be'))).toEqual(['de', 'fr', 'nl']);
  });

  it('offers the plain language when the brand lacks the regional variant (en for the US)', () => {
    expect(visibleLocales(['en', 'de'], 'US')).toEqual(['en']);
  });

  it('offers every brand locale when the country is unknown or not in the table', () => {
    expect(visibleLocales(['en', 'de', 'fr'], null)).toEqual(['en', 'de', 'fr']);
    expect(visibleLocales(['en', 'de', 'fr'], 'JP')).toEqual(['en', 'de', 'fr']);
  });

  it('a Dutch-only brand stays Dutch for everybody', () => {
    for (const country of ['NL', 'BE', 'DE', 'US', null]) expect(visibleLocales(['nl'], country)).toEqual(['nl']);
  });

  const velvet = { tenantLocales: ['en', 'de', 'fr'] as Locale[], defaultLocale: 'en' as Locale, domainLanguage: 'en' };

  it('the locale cookie wins over the domain language', () => {
    expect(chooseLocale({ ...velvet, cookie: 'de' })).toBe('de');
    expect(chooseLocale({ ...velvet, cookie: 'fr', country: 'DE' })).toBe('fr');
  });

  it('without a cookie the first two letters of the domain language choose', () => {
    expect(chooseLocale({ ...velvet })).toBe('en');
    expect(chooseLocale({ ...velvet, domainLanguage: 'de-AT' })).toBe('de');
    expect(chooseLocale({ ...velvet, domainLanguage: 'fr', cookie: null })).toBe('fr');
  });

  it('a cookie naming a locale the brand does not have is ignored', () => {
    expect(chooseLocale({ ...velvet, cookie: 'it' })).toBe('en');
    expect(chooseLocale({ ...velvet, cookie: 'klingon' })).toBe('en');
  });

  it('the language saved on the user record counts when no cookie exists', () => {
    expect(chooseLocale({ ...velvet, userLanguage: 'fr' })).toBe('fr');
    expect(chooseLocale({ ...velvet, userLanguage: 'fr', cookie: 'de' })).toBe('de');
  });

  it('falls back to the brand default when the domain language is not a brand locale', () => {
    expect(chooseLocale({ ...velvet, domainLanguage: 'nl' })).toBe('en');
    expect(chooseLocale({ tenantLocales: ['nl'], defaultLocale: 'nl', domainLanguage: 'nl', cookie: 'de' })).toBe('nl');
  });

  it('a US visitor on an English domain gets the US variant when the brand has it', () => {
    const brand = { tenantLocales: ['en', 'en-US', 'es'] as Locale[], defaultLocale: 'en' as Locale, domainLanguage: 'en' };
    expect(chooseLocale({ ...brand, country: 'US' })).toBe('en-US');
    expect(chooseLocale({ ...brand, country: 'GB' })).toBe('en');
    // An explicit choice stays what the visitor chose.
    expect(chooseLocale({ ...brand, country: 'US', cookie: 'en' })).toBe('en');
  });

  it('the language dropdown shows only with more than one visible locale, not when hidden, not on complete-signup (SPEC §2)', () => {
    expect(showLanguageDropdown(['en', 'de'], false, 'index')).toBe(true);
    expect(showLanguageDropdown(['nl'], false, 'index')).toBe(false);
    expect(showLanguageDropdown(['en', 'de'], true, 'index')).toBe(false);
    expect(showLanguageDropdown(['en', 'de'], false, 'complete-signup')).toBe(false);
  });
});

describe('entry (age) warning (SPEC §2)', () => {
  const visitor: EntryWarningContext = {
    routeName: 'index',
    layout: 'default',
    country: null,
    loggedIn: false,
    confirmed: false,
    installedApp: false,
    enabled: true,
  };

  it('shows for a new logged-out visitor on a default-layout page, whatever the country', () => {
    for (const country of [null, 'NL', 'BE', 'US']) expect(showEntryWarning({ ...visitor, country })).toBe(true);
    expect(showEntryWarning({ ...visitor, routeName: 'pricing' })).toBe(true);
  });

  it.each(['complete-signup', 'reset-password', 'reset-password-do', 'account-deleted'])('never shows on %s', (routeName) => {
    expect(showEntryWarning({ ...visitor, routeName, country: 'NL' })).toBe(false);
  });

  it.each(['chat', 'lander', 'empty'] as const)('in the %s layout shows only for NL and DE', (layout) => {
    expect(showEntryWarning({ ...visitor, layout, country: 'NL' })).toBe(true);
    expect(showEntryWarning({ ...visitor, layout, country: 'DE' })).toBe(true);
    expect(showEntryWarning({ ...visitor, layout, country: 'de' })).toBe(true);
    expect(showEntryWarning({ ...visitor, layout, country: 'BE' })).toBe(false);
    expect(showEntryWarning({ ...visitor, layout, country: 'AT' })).toBe(false);
    expect(showEntryWarning({ ...visitor, layout, country: null })).toBe(false);
  });

  it('shows once: not after the visitor confirmed it', () => {
    expect(showEntryWarning({ ...visitor, confirmed: true })).toBe(false);
  });

  it('never shows in installed-app mode', () => {
    expect(showEntryWarning({ ...visitor, installedApp: true })).toBe(false);
  });

  it('never shows when the brand turned it off', () => {
    expect(showEntryWarning({ ...visitor, enabled: false })).toBe(false);
  });

  it('never shows to a logged-in member, on any page, layout or country (property)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ROUTES.map((r) => r.name)),
        fc.constantFrom('default', 'chat', 'lander', 'empty'),
        fc.constantFrom(null, 'NL', 'DE', 'BE', 'US'),
        fc.boolean(),
        fc.boolean(),
        (routeName, layout, country, confirmed, installedApp) => {
          expect(showEntryWarning({ routeName, layout, country, confirmed, installedApp, loggedIn: true, enabled: true })).toBe(false);
        },
      ),
    );
  });
});

describe('banners of the default layout (SPEC §2)', () => {
  const member = (over: Partial<BannerUser> = {}, profile: Partial<NonNullable<BannerUser['profile']>> = {}): BannerUser => ({
    status: 'active',
    notifications_disabled: [],
    profile: { status: 'active', main_image: { filename: 'a.jpg' }, ...profile },
    ...over,
  });
  const on = (routeName: string, user: BannerUser | null, extra: Partial<BannerContext> = {}) =>
    visibleBanners({ routeName, user, dismissed: {}, pushOfferable: false, ...extra });

  it('shows no banner to a logged-out visitor', () => {
    expect(on('members', null, { pushOfferable: true })).toEqual([]);
  });

  it('shows the profile-photo alert when the member has no main image', () => {
    expect(on('members', member({}, { main_image: null }))).toContain('profile-photo');
    expect(on('chats', member({}, { main_image: null }))).toContain('profile-photo');
    expect(on('members', member())).not.toContain('profile-photo');
  });

  it.each(['profile', 'signup', 'activate-done', 'premium', 'notifications', 'directdebit', 'settings'])(
    'hides the profile-photo alert on %s',
    (routeName) => {
      expect(on(routeName, member({}, { main_image: null }))).not.toContain('profile-photo');
    },
  );

  it('shows the activate reminder only when not_confirmed, profile disabled and no notifications disabled', () => {
    const pending = { status: 'not_confirmed' };
    expect(on('members', member(pending, { status: 'disabled' }))).toContain('activate');
    expect(on('members', member({ status: 'active' }, { status: 'disabled' }))).not.toContain('activate');
    expect(on('members', member(pending, { status: 'active' }))).not.toContain('activate');
    expect(
      on('members', member({ ...pending, notifications_disabled: [{ type: 'news', reason: 'bounce' }] }, { status: 'disabled' })),
    ).not.toContain('activate');
  });

  it('shows the disabled-notifications alert when notifications are disabled', () => {
    expect(on('members', member({ notifications_disabled: [{ type: 'news', reason: 'fbl' }] }))).toContain('notifications-disabled');
    expect(on('members', member())).not.toContain('notifications-disabled');
  });

  it('shows the push opt-in when push can be offered', () => {
    expect(on('members', member(), { pushOfferable: true })).toEqual(['push']);
    expect(on('members', member(), { pushOfferable: false })).toEqual([]);
  });

  it('a dismissed banner stays away', () => {
    const user = member({}, { main_image: null });
    expect(on('members', user, { dismissed: { 'profile-photo': Date.now() } })).not.toContain('profile-photo');
    expect(on('members', user, { dismissed: { push: Date.now() }, pushOfferable: true })).toEqual(['profile-photo']);
  });
});

describe('one banner on the first screen (issue 21)', () => {
  it('puts the banners in the stated priority: activate, profile photo, time bonus, push, e-mails off', () => {
    expect(BANNER_PRIORITY).toEqual(['activate', 'profile-photo', 'time-bonus', 'push', 'notifications-disabled']);
  });

  it('shows the first by priority and collapses the others, whatever order the page has them in', () => {
    expect(stackBanners(['profile-photo', 'activate', 'time-bonus', 'push'])).toEqual({ first: 'activate', collapsed: ['profile-photo', 'time-bonus', 'push'] });
    expect(stackBanners(['push', 'notifications-disabled', 'time-bonus'])).toEqual({ first: 'time-bonus', collapsed: ['push', 'notifications-disabled'] });
    expect(stackBanners(['notifications-disabled'])).toEqual({ first: 'notifications-disabled', collapsed: [] });
    expect(stackBanners([])).toEqual({ first: null, collapsed: [] });
  });
});

describe('badges and title (SPEC §2, §9)', () => {
  it('caps the chat badge at 99+', () => {
    expect(countBadge(0)).toBe('');
    expect(countBadge(1)).toBe('1');
    expect(countBadge(99)).toBe('99');
    expect(countBadge(100)).toBe('99+');
    expect(countBadge(12345)).toBe('99+');
  });

  it('count badge text is the number up to 99 and 99+ above (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 99 }), (n) => {
        expect(countBadge(n)).toBe(String(n));
      }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 100, max: 10_000_000 }), (n) => {
        expect(countBadge(n)).toBe('99+');
      }),
    );
    fc.assert(
      fc.property(fc.integer({ min: -1000, max: 0 }), (n) => {
        expect(countBadge(n)).toBe('');
      }),
    );
  });

  it('credits badge: none above 10 or for unpaid users, warning from 10 down to 1, danger at 0', () => {
    expect(creditsBadge(11, true)).toBeNull();
    expect(creditsBadge(500, true)).toBeNull();
    expect(creditsBadge(10, true)).toEqual({ text: '10', tone: 'warning' });
    expect(creditsBadge(1, true)).toEqual({ text: '1', tone: 'warning' });
    expect(creditsBadge(0, true)).toEqual({ text: '0', tone: 'danger' });
    expect(creditsBadge(0, false)).toBeNull();
    expect(creditsBadge(5, false)).toBeNull();
  });

  it('credits badge tone follows the credits (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: -5, max: 1000 }), fc.boolean(), (credits, paid) => {
        const badge = creditsBadge(credits, paid);
        if (!paid || credits > 10) expect(badge).toBeNull();
        else if (credits > 0) expect(badge).toEqual({ text: String(credits), tone: 'warning' });
        else expect(badge?.tone).toBe('danger');
      }),
    );
  });

  it('prefixes the title with unread messages plus new likes in brackets', () => {
    expect(titleWithCount('Spetter', 3, 2)).toBe('(5) Spetter');
    expect(titleWithCount('Spetter', 0, 1)).toBe('(1) Spetter');
    expect(titleWithCount('Spetter', 0, 0)).toBe('Spetter');
    expect(titleWithCount('Velvet Nights', 120, 30)).toBe('(150) Velvet Nights');
  });

  it('puts the brand after a page title that does not name it already', () => {
    expect(brandedTitle('Anna', 'Spetter')).toBe('Anna | Spetter');
    expect(brandedTitle('Spetter', 'Spetter')).toBe('Spetter');
    expect(brandedTitle('Spetter - flirten in Nederland', 'Spetter')).toBe('Spetter - flirten in Nederland');
    expect(brandedTitle('Date tonight', 'Velvet Nights', 'Date tonight')).toBe('Date tonight');
  });
});

describe('refresh period (SPEC §4, §9)', () => {
  it('refreshes every 60 s, or 300 s with a push subscription', () => {
    expect(refreshPeriodSeconds(false)).toBe(60);
    expect(refreshPeriodSeconds(true)).toBe(300);
  });

  it('starts 5 s after the page is shown', () => {
    expect(refreshSchedule(false, 3)).toEqual([5, 65, 125]);
    expect(refreshSchedule(true, 3)).toEqual([5, 305, 605]);
    expect(refreshSchedule(false, 0)).toEqual([]);
  });
});

describe('terms version date (SPEC §9)', () => {
  it('is at least 2023-12-01T12:00:00Z', () => {
    expect(termsVersionDate(null).toISOString()).toBe('2023-12-01T12:00:00.000Z');
    expect(termsVersionDate(undefined).toISOString()).toBe('2023-12-01T12:00:00.000Z');
    expect(termsVersionDate('2020-05-01T00:00:00Z').toISOString()).toBe('2023-12-01T12:00:00.000Z');
    expect(termsVersionDate('2023-12-01T11:59:59Z').toISOString()).toBe('2023-12-01T12:00:00.000Z');
    expect(termsVersionDate('not a date').toISOString()).toBe('2023-12-01T12:00:00.000Z');
  });

  it('is the company-added date when that is later', () => {
    expect(termsVersionDate('2024-03-18T09:00:00Z').toISOString()).toBe('2024-03-18T09:00:00.000Z');
    expect(termsVersionDate('2025-02-01').toISOString()).toBe('2025-02-01T00:00:00.000Z');
  });
});

describe('routes (SPEC §2 route table)', () => {
  const name = (path: string) => matchRoute(path)?.route.name;

  it('matches every fixed path of the route table to its name', () => {
    const fixed: Record<string, string> = {
      '/': 'index',
      '/login': 'login',
      '/signup': 'signup',
      '/complete-signup': 'complete-signup',
      '/signup-matches': 'signup-matches',
      '/reset-password': 'reset-password',
      '/reset-password/do': 'reset-password-do',
      '/activate/done': 'activate-done',
      '/activate/error': 'activate-error',
      '/mail-change/do': 'mail-change-do',
      '/account-deleted': 'account-deleted',
      '/members': 'members',
      '/chats': 'chats',
      '/likes': 'likes',
      '/match-finder': 'match-finder',
      '/swipe-game': 'swipe-game',
      '/profile': 'profile',
      '/notifications': 'notifications',
      '/lang-config': 'lang-config',
      '/premium': 'premium',
      '/pricing': 'pricing',
      '/credits': 'credits',
      '/credits/repeat-order': 'credits-repeat-order',
      '/directdebit': 'directdebit',
      '/complaints': 'complaints',
    };
    for (const [path, route] of Object.entries(fixed)) expect(name(path), path).toBe(route);
  });

  it('takes an {id} as a database id only when it is one: digits, 1 to 2^31-1', () => {
    expect(routeId('42')).toBe(42);
    expect(routeId('2147483647')).toBe(2_147_483_647);
    for (const bad of [undefined, '', '0', '-1', '1e3', '0x10', '4.0', ' 4', '2147483648', '99999999999', 'abc']) expect(routeId(bad), String(bad)).toBeNull();
  });

  it('reads the parameters of the routes with {id}, {type}, {slug?} and {paymentmethod?}', () => {
    expect(matchRoute('/members/42')).toMatchObject({ route: { name: 'members-id' }, params: { id: '42' } });
    expect(matchRoute('/members/42/chat')).toMatchObject({ route: { name: 'members-id-chat' }, params: { id: '42' } });
    expect(matchRoute('/members/42/landing')?.route.name).toBe('members-id-landing');
    expect(matchRoute('/members/42/signup')?.route.name).toBe('members-id-signup');
    expect(matchRoute('/members/42/landing2')).toMatchObject({ route: { name: 'members-id-landing2-slug' }, params: { id: '42', slug: undefined } });
    expect(matchRoute('/members/42/landing3/milf-eng')).toMatchObject({ route: { name: 'members-id-landing3-slug' }, params: { slug: 'milf-eng' } });
    expect(matchRoute('/likes/m/7')).toMatchObject({ route: { name: 'likes-m-id' }, params: { id: '7' } });
    expect(matchRoute('/likes/received')).toMatchObject({ route: { name: 'likes-type' }, params: { type: 'received' } });
    expect(matchRoute('/chats/abc')).toMatchObject({ route: { name: 'chats-id' }, params: { id: 'abc' } });
    expect(matchRoute('/credits/3')).toMatchObject({ route: { name: 'credits-id-paymentmethod' }, params: { id: '3', paymentmethod: undefined } });
    expect(matchRoute('/credits/3/ideal')).toMatchObject({ route: { name: 'credits-id-paymentmethod' }, params: { id: '3', paymentmethod: 'ideal' } });
    expect(matchRoute('/transactions')).toMatchObject({ route: { name: 'transactions-id' }, params: { id: undefined } });
    expect(matchRoute('/transactions/9')).toMatchObject({ route: { name: 'transactions-id' }, params: { id: '9' } });
  });

  it('accepts a trailing slash', () => {
    expect(name('/chats/')).toBe('chats');
    expect(name('/members/5/')).toBe('members-id');
  });

  it('does not claim static pages, landers, slugs or unknown paths', () => {
    for (const path of ['/pages/terms', '/landers/tinderswipe', '/landers/gallery/milf-eng', '/milf-eng', '/nope', '/members/1/2/3', '/chatsx']) {
      expect(matchRoute(path), path).toBeUndefined();
    }
  });

  it('guards: member routes need a login; landers, pricing and static routes do not; search depends on the brand', () => {
    const guard = (path: string) => matchRoute(path)?.route.guard;
    for (const path of ['/chats', '/chats/1', '/profile', '/credits', '/likes', '/premium', '/members/3', '/notifications', '/directdebit']) {
      expect(guard(path), path).toBe('member');
    }
    for (const path of ['/', '/login', '/signup', '/pricing', '/reset-password', '/lang-config', '/complaints']) {
      expect(guard(path), path).toBe('guest');
    }
    expect(guard('/members')).toBe('search');
    expect(loggedOutSearchAllowed({ logged_out_search: true, logged_out_search_trafficsource: false }, false)).toBe(true);
    expect(loggedOutSearchAllowed({ logged_out_search: false, logged_out_search_trafficsource: true }, true)).toBe(true);
    expect(loggedOutSearchAllowed({ logged_out_search: false, logged_out_search_trafficsource: true }, false)).toBe(false);
    expect(loggedOutSearchAllowed({ logged_out_search: false, logged_out_search_trafficsource: false }, true)).toBe(false);
  });

  it('sends a refused visitor to /login with the way back', () => {
    expect(loginRedirect('/chats')).toBe('/login?next=%2Fchats');
    expect(loginRedirect('/chats/5', '?x=1')).toBe('/login?next=%2Fchats%2F5%3Fx%3D1');
  });

  it('only lets a same-site path come back as next', () => {
    expect(safeNext('/chats')).toBe('/chats');
    expect(safeNext('/chats/5?x=1#end')).toBe('/chats/5?x=1#end');
    for (const bad of [null, undefined, '', 'chats', 'https://evil.example/', '//evil.example', '/\\evil.example', '/\t/evil.example', '/\n/evil.example', 'javascript:alert(1)']) {
      expect(safeNext(bad), JSON.stringify(bad)).toBe('/members');
    }
    expect(safeNext('//evil.example', '/')).toBe('/');
  });

  it('whatever next holds, a browser following it stays on the site (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (next) => {
        const target = new URL(safeNext(next), 'https://brand.example/');
        expect(target.origin).toBe('https://brand.example');
      }),
      { numRuns: 500 },
    );
    fc.assert(
      fc.property(fc.constantFrom('/', '//', '/\\', '/\t/', 'http://', '\\\\', '/\r\n/'), fc.webUrl(), (lead, url) => {
        const next = lead + url.replace(/^https?:\/\//, '');
        expect(new URL(safeNext(next), 'https://brand.example/').origin).toBe('https://brand.example');
      }),
    );
  });

  it('the login redirect brings a visitor back to where they were (property)', () => {
    const segment = fc.stringMatching(/^[a-z0-9-]{1,12}$/);
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 4 }), fc.option(segment), (segments, query) => {
        const path = `/${segments.join('/')}`;
        const search = query ? `?q=${query}` : '';
        const next = new URL(loginRedirect(path, search), 'https://brand.example').searchParams.get('next');
        expect(safeNext(next)).toBe(path + search);
      }),
    );
  });

  it('every route path, with its parameters filled in, matches its own name', () => {
    for (const route of ROUTES) {
      const path = route.path.replace(/\{(\w+)\??\}/g, (_m, p: string) => (p === 'type' ? 'received' : p === 'paymentmethod' ? 'ideal' : '17'));
      // /credits/{id} with id 17 must not be mistaken for /credits/repeat-order and vice versa.
      expect(matchRoute(path)?.route.name, path).toBe(route.name);
    }
  });
});

describe('icon ids', () => {
  it('names Tabler icons and finds their SVG file', () => {
    expect(isIconId('tabler:masks-theater')).toBe(true);
    expect(iconUrl('tabler:masks-theater')).toBe('/icons/tabler/masks-theater.svg');
    expect(iconUrl('tabler:device-gamepad-2')).toBe('/icons/tabler/device-gamepad-2.svg');
  });

  it.each(['🎭', 'masks', 'tabler:', 'tabler:Masks', 'mdi:heart', 'tabler:heart;color:red', 'tabler:-x', 'tabler:../x', ' tabler:heart'])(
    'takes %j as a brand text, not an icon id',
    (value) => expect(isIconId(value)).toBe(false),
  );
});

describe('the brand of a host', () => {
  const brands = [
    { id: 'aaa', domains: ['aaa.test'] },
    { id: 'spetter', domains: ['spetter.nl'], default: true },
    { id: 'velvet', domains: ['velvetnights.com'] },
  ];
  it('a brand by its domain, www. of it, or <id>.localhost', () => {
    expect(resolveTenant(brands, 'www.velvetnights.com')?.id).toBe('velvet');
    expect(resolveTenant(brands, 'aaa.localhost:4321')?.id).toBe('aaa');
  });
  it('hosts that name no brand get the brand marked default, whatever brands are added before it', () => {
    expect(resolveTenant(brands, 'localhost:4321')?.id).toBe('spetter');
    expect(resolveTenant(brands, 'unknown.example')?.id).toBe('spetter');
    expect(resolveTenant(brands, 'localhost', 'velvet')?.id).toBe('velvet');
    expect(resolveTenant(brands.map((b) => ({ ...b, default: false })), 'localhost')?.id).toBe('aaa');
  });
  it('a host is one the brand is served at only when it names the brand, not when it falls back to it', () => {
    const spetter = brands[1]!;
    for (const host of ['spetter.nl', 'www.spetter.nl', 'SPETTER.NL:443', 'spetter.localhost:4321']) expect(servesHost(spetter, host), host).toBe(true);
    for (const host of ['localhost:4321', 'unknown.example', 'velvetnights.com', 'velvet.localhost', 'spetter.nl.evil.example', '', undefined]) expect(servesHost(spetter, host), String(host)).toBe(false);
  });
  it('the host index answers as a scan of every brand would: www., port, case, <id>.localhost, the default', () => {
    const index = new HostIndex(brands);
    const hosts = ['velvetnights.com', 'www.velvetnights.com', 'VELVETNIGHTS.COM:8443', 'www.aaa.test:80', 'aaa.localhost:4321', 'velvet.test', 'spetter.local', 'nobody.localhost', 'localhost:4321', 'unknown.example', 'www.', '', undefined, '[::1]:4321'];
    for (const host of hosts) {
      expect(index.resolve(host)?.id, String(host)).toBe(resolveTenant(brands, host)?.id);
      expect(index.resolve(host, 'velvet')?.id, `${String(host)}, default velvet`).toBe(resolveTenant(brands, host, 'velvet')?.id);
    }
    expect(index.resolve('www.velvetnights.com')?.id).toBe('velvet');
    expect(index.resolve('VELVETNIGHTS.COM:8443')?.id).toBe('velvet');
    expect(index.resolve('aaa.localhost:4321')?.id).toBe('aaa');
    expect(index.resolve('unknown.example')?.id).toBe('spetter');
    expect(index.resolve('unknown.example', 'velvet')?.id).toBe('velvet');
    expect(index.resolve('unknown.example', 'gone')?.id, 'a default id that names no brand').toBe('spetter');
    expect(new HostIndex(brands.map((b) => ({ ...b, default: false }))).resolve('localhost')?.id).toBe('aaa');
    expect(new HostIndex([]).resolve('spetter.nl')).toBeUndefined();
  });
  it('a domain two brands claim is the first brand\'s, as in a scan in id order', () => {
    const both = [...brands, { id: 'zzz', domains: ['spetter.nl', 'zzz.test'] }];
    expect(new HostIndex(both).resolve('spetter.nl')?.id).toBe('spetter');
    expect(new HostIndex(both).resolve('zzz.test')?.id).toBe('zzz');
    expect(new HostIndex(both).byId('zzz')?.domains).toEqual(['spetter.nl', 'zzz.test']);
  });
});

describe('brandDay: the swipe game day, midnight to midnight in the brand time zone', () => {
  it('a winter and a summer day in Amsterdam, and the DST changes', async () => {
    const { brandDay } = await import('../../src/lib/brand-day.ts');
    const z = 'Europe/Amsterdam';
    expect(brandDay(new Date('2026-01-15T12:00:00Z'), z)).toEqual({ start: new Date('2026-01-14T23:00:00Z'), end: new Date('2026-01-15T23:00:00Z') });
    expect(brandDay(new Date('2026-07-01T21:59:59Z'), z)).toEqual({ start: new Date('2026-06-30T22:00:00Z'), end: new Date('2026-07-01T22:00:00Z') });
    // 23:30 UTC in summer is already the next day in Amsterdam.
    expect(brandDay(new Date('2026-07-01T22:30:00Z'), z).start).toEqual(new Date('2026-07-01T22:00:00Z'));
    // The spring day has 23 hours, the autumn day 25.
    const spring = brandDay(new Date('2026-03-29T12:00:00Z'), z);
    expect(spring).toEqual({ start: new Date('2026-03-28T23:00:00Z'), end: new Date('2026-03-29T22:00:00Z') });
    const autumn = brandDay(new Date('2026-10-25T12:00:00Z'), z);
    expect(autumn).toEqual({ start: new Date('2026-10-24T22:00:00Z'), end: new Date('2026-10-25T23:00:00Z') });
    // Month and year ends roll over.
    expect(brandDay(new Date('2026-12-31T20:00:00Z'), z).end).toEqual(new Date('2026-12-31T23:00:00Z'));
    expect(brandDay(new Date('2026-01-31T05:00:00Z'), 'America/New_York')).toEqual({ start: new Date('2026-01-31T05:00:00Z'), end: new Date('2026-02-01T05:00:00Z') });
    expect(brandDay(new Date('2026-01-31T04:59:00Z'), 'America/New_York').start).toEqual(new Date('2026-01-30T05:00:00Z'));
  });
});

describe('the business register a company number is in (footer)', () => {
  it('is named for the company country: KvK only for a Dutch company, the CRO for an Irish one', () => {
    expect(registryKey('NL')).toBe('registry_nl');
    expect(registryKey('IE')).toBe('registry_ie');
    expect(registryKey('BE')).toBe('registry_be');
    expect(registryKey('DE')).toBe('registry_de');
    expect(registryKey('GB')).toBe('registry_gb');
    expect(registryKey('FR')).toBe('registry_fr');
    expect(registryKey('ie')).toBe('registry_ie');
  });

  it('is the neutral company number for a country without a register of its own, or none given', () => {
    for (const code of ['US', 'PL', '', null, undefined, 'toString']) expect(registryKey(code)).toBe('registry_other');
  });

  it('each register has its message in every catalogue, with the number in it', () => {
    const keys = [...new Set(['NL', 'BE', 'DE', 'AT', 'CH', 'GB', 'IE', 'FR', 'US'].map(registryKey))];
    for (const file of readdirSync(join(import.meta.dirname, '../../locales'))) {
      const catalogue = JSON.parse(readFileSync(join(import.meta.dirname, '../../locales', file), 'utf8')) as Record<string, string>;
      for (const key of keys) expect(catalogue[key], `${file} ${key}`).toContain('{number}');
      expect(catalogue.registry_ie, file).toMatch(/CRO/);
      expect(catalogue.registry_ie, file).not.toMatch(/KvK/);
    }
  });
});

describe('Belgian place names in the member language', () => {
  it('shows provinces and cities the data sets name in French by their Dutch names on a Dutch page', async () => {
    const { placeName, placeLine } = await import('../../src/lib/place-names.ts');
    expect(placeName('BE', 'Brabant wallon', 'nl')).toBe('Waals-Brabant');
    expect(placeLine({ country: 'BE', city: 'Arlon', region: 'Luxembourg' }, 'nl')).toBe('Aarlen, Luxemburg');
    expect(placeLine({ country: 'BE', city: 'Liège', region: 'Liège' }, 'nl')).toBe('Luik');
    expect(placeLine({ country: 'BE', city: 'Mons', region: 'Hainaut' }, 'nl')).toBe('Bergen, Henegouwen');
    expect(placeName('BE', 'Namur', 'nl')).toBe('Namen');
    expect(placeName('BE', 'Brussel / Bruxelles', 'nl')).toBe('Brussel');
    // And the other way round on a French page; English and German have their own.
    expect(placeLine({ country: 'BE', city: 'Gent', region: 'Oost-Vlaanderen' }, 'fr')).toBe('Gand, Flandre-Orientale');
    expect(placeName('BE', 'Antwerpen', 'en')).toBe('Antwerp');
    expect(placeName('BE', 'Liège', 'de')).toBe('Lüttich');
  });

  it('leaves other countries and names it does not know as stored', async () => {
    const { placeName, placeLine } = await import('../../src/lib/place-names.ts');
    expect(placeName('NL', 'Limburg', 'fr')).toBe('Limburg');
    expect(placeName('FR', 'Luxembourg', 'nl')).toBe('Luxembourg');
    expect(placeName('BE', 'Charleroi', 'nl')).toBe('Charleroi');
    expect(placeLine({ country: 'NL', city: 'Almere', region: 'Flevoland' }, 'de')).toBe('Almere, Flevoland');
    expect(placeLine({ country: 'BE', city: null, region: null }, 'nl')).toBe('');
  });
});

describe('cookies of a Cookie header', () => {
  it('reads several in one pass, the first of a name, an undecodable one as none', async () => {
    const { readCookie, readCookies } = await import('../../src/lib/cookies.ts');
    const header = 'src=%7B%22n%22%3A1%7D; src_consent=accept; other=x; src=later; bad=%E0%A4%A';
    expect(readCookies(header, ['src', 'src_consent', 'bad', 'absent'])).toEqual({ src: '{"n":1}', src_consent: 'accept', bad: null, absent: null });
    expect(readCookies(undefined, ['src'])).toEqual({ src: null });
    expect(readCookie(header, 'src_consent')).toBe('accept');
    expect(readCookie('bad=%E0%A4%A; bad=ok', 'bad')).toBeNull();
  });
});
