import type { AstroGlobal } from 'astro';
import { landingSlug, NICHES } from '../lib/slugs.ts';
import { memberIdParam } from './member-profile.ts';

/**
 * The member a member lander is about, or null (then the page answers 404): the id must be a
 * visible member of this brand and the slug, when given, one of the brand's landing slugs.
 * Pages call this in their own frontmatter, so the status is set before anything streams.
 */
export async function memberLandingCard(astro: Pick<AstroGlobal, 'locals' | 'params'>) {
  const { tenant, services } = astro.locals;
  const id = memberIdParam(astro);
  const slug = astro.params.slug;
  const slugs = tenant.locales.available.flatMap((l) => NICHES.map((n) => landingSlug(n, l)));
  if (id === null || (slug && !slugs.includes(slug))) return null;
  return services.profiles
    .publicProfile(tenant, id, null)
    .then((r) => r.profile)
    .catch(() => null);
}

export type MemberLandingCard = NonNullable<Awaited<ReturnType<typeof memberLandingCard>>>;
