import { z } from 'zod';
import type { ApiRoute } from './context.ts';
import { settingsPayload, companyInfo } from '../services/settings.ts';
import { INTERESTS } from '../data/interests.ts';
import { regionsPayload } from '../data/regions.ts';
import { reverseGeocode } from '../data/geocode.ts';
import { hostName } from '../../tenant/resolve.ts';
import { visibleLocales } from '../../lib/locales.ts';
import { message } from '../i18n.ts';
import { badRequest } from '../errors.ts';

/** How long browsers may keep the answers that only change with a deploy (SPEC §7: "loaded once and cached"). */
const STATIC_DATA_CACHE = { 'Cache-Control': 'public, max-age=3600' };

const GeocodeQuery = z.object({
  lat: z.coerce.number().min(-90).max(90),
  lon: z.coerce.number().min(-180).max(180),
});

/** The endpoints every visitor may call (SPEC §7): settings, company info, interests, regions, geocode. */
export const publicRoutes: Record<string, ApiRoute> = {
  'settings.php': {
    GET: (ctx) => {
      // SPEC §7: the page passes its host as the forced domain; it picks the brand when it names one.
      const forced = ctx.query.get('domain') ?? ctx.query.get('forced_domain');
      // The brand of the forced domain (issue: "settings of the tenant for the forced domain"); a
      // brand's settings are public on its own site anyway. A domain of no brand: the host's brand.
      const named = forced ? ctx.services.tenants().find((t) => t.domains.includes(hostName(forced).replace(/^www\./, '')) || t.domains.includes(hostName(forced))) : undefined;
      const tenant = named ?? ctx.tenant;
      const locale = tenant.id === ctx.tenant.id ? ctx.locale : tenant.locales.default;
      return {
        settings: settingsPayload({
          tenant,
          locale,
          locales: visibleLocales(tenant.locales.available, ctx.country),
          geoipCountry: ctx.country,
          selectedCountry: ctx.query.get('country')?.toUpperCase() ?? ctx.cookie('selected_country'),
          pushPublicKey: ctx.services.pushPublicKey,
        }),
      };
    },
  },
  'companyinfo.php': {
    GET: (ctx) => ({ body: { company: companyInfo(ctx.tenant) }, headers: STATIC_DATA_CACHE }),
  },
  'interests.php': {
    GET: (ctx) => ({
      body: {
        interests: INTERESTS.map((i) => ({ key: i.key, icon: i.icon, label: message(`interest_${i.key}`, ctx.locale, {}, ctx.tenant.locales.fallback) })),
      },
      headers: STATIC_DATA_CACHE,
    }),
  },
  'regions.php': {
    GET: (ctx) => {
      const payload = regionsPayload(ctx.tenant.countries);
      return {
        body: {
          countries: payload.countries.map((c) => ({
            ...c,
            name: new Intl.DisplayNames([ctx.locale], { type: 'region' }).of(c.code) ?? c.code,
            label: message(c.label_key, ctx.locale, {}, ctx.tenant.locales.fallback),
          })),
        },
        headers: STATIC_DATA_CACHE,
      };
    },
  },
  'geocode.php': {
    GET: (ctx) => {
      const query = GeocodeQuery.safeParse(Object.fromEntries(ctx.query));
      if (!query.success) throw badRequest(String(query.error.issues[0]?.path[0] ?? 'lat'));
      return { geocode: reverseGeocode(query.data.lat, query.data.lon) ?? false };
    },
  },
  'page-hidden.php': {
    // SPEC §7: a beacon when the page becomes hidden; the member's last-seen time is kept by the session service.
    POST: async (ctx) => {
      await ctx.body(); // {} (SPEC §7); a broken body is refused like anywhere else
      if (ctx.session) await ctx.services.sessions.touch(ctx.session);
      return { status: 204 };
    },
  },
};
