import type { Kysely } from 'kysely';
import type { Database } from '../db/index.ts';

/** Who is looking: a member (their user and profile ids) or a visitor (null). */
export interface Viewer {
  userId: number;
  profileId: number | null;
}

/**
 * The one rule of which profiles a viewer may see (DESIGN §8): the brand's own, active, not
 * invisible (fictional profiles have no user and are never invisible), and not the viewer's own
 * in a listing (a member still opens their own profile: `self: true`). Every listing and every
 * single-profile read starts from this query; blocks will narrow it here, both ways, once they exist.
 */
export function visibleProfiles(db: Kysely<Database>, tenantId: string, viewer: Viewer | null, options: { self?: boolean } = {}) {
  let q = db
    .selectFrom('profiles')
    .leftJoin('users', 'users.id', 'profiles.user_id')
    .where('profiles.tenant_id', '=', tenantId)
    .where('profiles.status', '=', 'active');
  if (viewer && options.self) {
    // Invisible mode hides a member from others, never from themselves.
    q = q.where((eb) => eb.or([eb('users.invisible', 'is', null), eb('users.invisible', '=', 0), eb('users.id', '=', viewer.userId)]));
  } else {
    q = q.where((eb) => eb.or([eb('users.invisible', 'is', null), eb('users.invisible', '=', 0)]));
    if (viewer?.profileId) q = q.where('profiles.id', '!=', viewer.profileId);
  }
  return q;
}
