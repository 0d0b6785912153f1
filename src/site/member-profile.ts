import type { AstroGlobal } from 'astro';
import type { MemberAnswer } from '../contract/member.ts';
import { routeId } from '../lib/routes.ts';

/** The {id} of a member route as a database id, or null when it cannot be one. */
export function memberIdParam(astro: Pick<AstroGlobal, 'params'>): number | null {
  return routeId(astro.params.id);
}

/**
 * The member a profile screen shows (members-id and likes-m-id), as the viewer may see it, or
 * null: the page then answers 404. Pages call this in their own frontmatter, so the status is set
 * before anything streams.
 */
export async function loadMemberProfile(astro: Pick<AstroGlobal, 'locals' | 'params'>): Promise<MemberAnswer | null> {
  const { tenant, services, user } = astro.locals;
  const id = memberIdParam(astro);
  if (id === null) return null;
  return services.profiles.publicProfile(tenant, id, user ? { id: user.id, paid_user: user.paid_user, profileId: user.profile?.id ?? null } : null).catch((error: unknown) => {
    // The runtime's services are not bundled with the page: the AppError is known by its status.
    if ((error as { status?: unknown } | null)?.status === 404) return null;
    throw error;
  });
}
