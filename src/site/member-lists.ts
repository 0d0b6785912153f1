import type { AstroGlobal } from 'astro';
import { routeId, type LIKES_TYPES } from '../lib/routes.ts';

/**
 * The lists of other members a member's pages show, read on the server (SPEC §2): the swipe
 * game's deck, the match finder's suggestions, the likes tabs, the members blocked, and the
 * member a complaint is about. A visitor (or a member without a profile) gets empty lists.
 * Pages call these in their own frontmatter and only read what they answer.
 */
function likerOf(astro: Pick<AstroGlobal, 'locals'>) {
  const { user } = astro.locals;
  return user?.profile ? { userId: user.id, profileId: user.profile.id } : null;
}

/** The swipe game's deck (swipe-game, SPEC §9). */
export async function swipeDeck(astro: Pick<AstroGlobal, 'locals'>) {
  const { services, tenant } = astro.locals;
  const liker = likerOf(astro);
  return liker ? services.swipes.deck(tenant, liker) : { profiles: [], likes_left: 0, next_at: null };
}

/** The match finder's suggestions, each with why it is there (match-finder). */
export async function matchSuggestions(astro: Pick<AstroGlobal, 'locals'>) {
  const { services, tenant } = astro.locals;
  const liker = likerOf(astro);
  return liker ? services.swipes.suggestions(tenant, liker) : [];
}

/** One tab of the likes pages (likes, likes-type). */
export async function likesTab(astro: Pick<AstroGlobal, 'locals'>, type: (typeof LIKES_TYPES)[number]) {
  const { services, tenant } = astro.locals;
  const liker = likerOf(astro);
  return liker ? services.likes.list(tenant, liker, type) : { profiles: [], liked_by: [], total_new: 0 };
}

/** The members the member blocked (notifications). */
export async function blockedMembers(astro: Pick<AstroGlobal, 'locals'>) {
  const { services, tenant } = astro.locals;
  const liker = likerOf(astro);
  return liker ? services.safety.blocked(tenant, liker) : [];
}

/**
 * The member a complaint is about (`?profile=<id>` from a profile's report action): one the
 * member may see or blocked, never the member themself; null for none (complaints).
 */
export async function complaintSubject(astro: Pick<AstroGlobal, 'locals' | 'url'>): Promise<{ id: number; name: string; blocked: boolean } | null> {
  const { services, tenant, user } = astro.locals;
  // Digits only, as every route id is read (routeId): ?profile=0x1 or 1e0 names nobody.
  const asked = routeId(astro.url.searchParams.get('profile') ?? undefined);
  if (!user?.profile || asked === null) return null;
  const found = await services.profiles.publicProfile(tenant, asked, { id: user.id, paid_user: user.paid_user, profileId: user.profile.id }).catch(() => null);
  if (!found || found.profile.id === user.profile.id) return null;
  return { id: found.profile.id, name: found.profile.name, blocked: found.relation?.blocked ?? false };
}

/**
 * The statements of decisions on complaints the member made or that were upheld against them,
 * newest first, in the member's language (profile#statements, where the statement mail links).
 */
export async function memberStatements(astro: Pick<AstroGlobal, 'locals'>) {
  const { services, tenant, user, locale } = astro.locals;
  return user ? services.complaints.statements(tenant, user.id, locale) : [];
}
