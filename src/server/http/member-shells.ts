import { posix } from 'node:path';
import { matchRoute, routeId } from '../../lib/routes.ts';

/**
 * Member shells (issue "fast, light member pages"; DESIGN §2 "member routes are server-rendered
 * shells hydrated by islands"). The pages a member opens most are the same bytes for every member
 * of a brand in one language: the header, the layout and the islands' frames. They are built per
 * language like the landers (src/pages/l/[locale]/shells/) and answered from memory to a logged-in
 * member, after the session and, for a profile, the visibility rule; the member's own parts (name,
 * credits, badges, banners, the time bonus, search results, the profile) fill in from the stores
 * and the API in the browser. A page rendered for each request cost 4-9 ms of CPU (bench/README.md).
 *
 * A visitor (the members search of a brand with logged_out_search) and a build without shells get
 * the server-rendered page, as before. Like every prerendered page, a shell shows the brand as it
 * was built: an edit of tenant.json reaches it with `sitegen build` (`npm run dev` rebuilds).
 */

/** The folder of the shells in a build's client files, per language: l/<locale>/shells/<route>/index.html. */
export const SHELL_FOLDER = 'shells';

/** The routes answered with a shell, and what is checked before: `profile` = the {id} must be a profile the member may open. */
export const MEMBER_SHELLS: Readonly<Record<string, { check?: 'profile' }>> = {
  members: {},
  'members-id': { check: 'profile' },
  'likes-m-id': { check: 'profile' },
};

export interface ShellRequest {
  /** The route's name, the shell's folder. */
  route: string;
  /** The profile the address names, when the route shows one (null: it names none, a 404). */
  profileId?: number | null;
}

/** The shell an address asks for, or undefined when it is not a shell's route. */
export function shellOf(pathname: string): ShellRequest | undefined {
  const match = matchRoute(pathname);
  const shell = match && MEMBER_SHELLS[match.route.name];
  if (!match || !shell) return undefined;
  if (shell.check !== 'profile') return { route: match.route.name };
  return { route: match.route.name, profileId: routeId(match.params.id) };
}

/** The shell's file under the build's client folder. */
export function shellFile(locale: string, route: string): string {
  return posix.join('l', locale, SHELL_FOLDER, route, 'index.html');
}
