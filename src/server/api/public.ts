import { CompanyInfoAnswer, GeocodeAnswer, InterestsAnswer, RegionsAnswer, SettingsAnswer } from '../../contract/public.ts';
import { settingsPayload, companyInfo } from '../services/settings.ts';
import { INTERESTS } from '../data/interests.ts';
import { regionsPayload } from '../data/regions.ts';
import { reverseGeocode } from '../data/geocode.ts';
import { hostName } from '../../tenant/resolve.ts';
import { visibleLocales } from '../../lib/locales.ts';
import { countryName } from '../../lib/names.ts';
import { ConsentAnswer, ConsentBody, GeocodeQuery } from '../../contract/public.ts';
import { ATTRIBUTION_COOKIE } from '../../lib/attribution.ts';
import { json, noContent, route } from '../http/routes.ts';

/** How long browsers may keep the answers that only change with a deploy (SPEC §7: "loaded once and cached"). */
const STATIC_DATA_CACHE = { 'Cache-Control': 'public, max-age=3600' };

/** The endpoints every visitor may call (SPEC §7): settings, company info, interests, regions, geocode; the consent bar's choice (issue 23). */
export const publicRoutes = [
  route({
    method: 'GET',
    path: 'settings.php',
    answer: SettingsAnswer,
    who: 'visitor',
    handler: (ctx) => {
      // SPEC §7: the page passes its host as the forced domain; it picks the brand when it names one.
      const forced = ctx.params.get('domain') ?? ctx.params.get('forced_domain');
      // The brand of the forced domain (issue: "settings of the tenant for the forced domain"); a
      // brand's settings are public on its own site anyway. A domain of no brand: the host's brand.
      const named = forced ? ctx.services.tenants().find((t) => t.domains.includes(hostName(forced).replace(/^www\./, '')) || t.domains.includes(hostName(forced))) : undefined;
      const tenant = named ?? ctx.tenant;
      const locale = tenant.id === ctx.tenant.id ? ctx.locale : tenant.locales.default;
      return json({
        settings: settingsPayload({
          tenant,
          locale,
          locales: visibleLocales(tenant.locales.available, ctx.country),
          geoipCountry: ctx.country,
          selectedCountry: ctx.params.get('country')?.toUpperCase() ?? ctx.cookie('selected_country'),
          pushPublicKey: ctx.services.pushPublicKey,
        }),
      });
    },
  }),
  route({
    method: 'GET',
    path: 'companyinfo.php',
    answer: CompanyInfoAnswer,
    who: 'visitor',
    handler: (ctx) => json({ company: companyInfo(ctx.tenant) }, { headers: STATIC_DATA_CACHE }),
  }),
  route({
    method: 'GET',
    path: 'interests.php',
    answer: InterestsAnswer,
    who: 'visitor',
    handler: (ctx) =>
      json({ interests: INTERESTS.map((i) => ({ key: i.key, icon: i.icon, label: ctx.t(`interest_${i.key}`) })) }, { headers: STATIC_DATA_CACHE }),
  }),
  route({
    method: 'GET',
    path: 'regions.php',
    answer: RegionsAnswer,
    who: 'visitor',
    handler: (ctx) => {
      const payload = regionsPayload(ctx.tenant.countries);
      return json(
        { countries: payload.countries.map((c) => ({ ...c, name: countryName(c.code, ctx.locale), label: ctx.t(c.label_key) })) },
        { headers: STATIC_DATA_CACHE },
      );
    },
  }),
  route({
    method: 'GET',
    path: 'geocode.php',
    answer: GeocodeAnswer,
    who: 'visitor',
    query: GeocodeQuery,
    handler: (ctx) => json({ geocode: reverseGeocode(ctx.query.lat, ctx.query.lon) ?? false }),
  }),
  route({
    // SPEC §7: a beacon when the page becomes hidden; the member's last-seen time is kept by the session service.
    method: 'POST',
    path: 'page-hidden.php',
    answer: 'empty',
    who: 'visitor',
    handler: async (ctx) => {
      if (ctx.session) await ctx.services.sessions.touch(ctx.session);
      return noContent();
    },
  }),
  route({
    // The lander's consent bar (issue 23, docs/API.md "Consent"): the choice, and the attribution cookie it changes.
    method: 'POST',
    path: 'consent.php',
    answer: ConsentAnswer,
    who: 'visitor',
    body: ConsentBody,
    handler: (ctx) => {
      ctx.services.traffic.consent({ choice: ctx.body.choice, tracking: ctx.body.tracking, cookie: ctx.cookie(ATTRIBUTION_COOKIE) }).forEach(ctx.setCookie);
      return json({ consent: ctx.body.choice });
    },
  }),
];
