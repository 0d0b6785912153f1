import type { Permission } from '../../../src/contract/console.ts';

/**
 * The console's navigation: one entry per section, shown to the roles its permission names
 * (src/contract/console.ts PERMISSIONS). A new section adds its entry here, its `nav_<id>` message
 * to console/locales/{en,nl}.json and its page (docs/API.md "Console pages").
 */
export const NAV = [
  { id: 'members', href: '/console/members', permission: 'members.read', icon: 'i-tabler-users' },
  { id: 'inbox', href: '/console/inbox', permission: 'inbox', icon: 'i-tabler-inbox' },
  { id: 'fictional', href: '/console/fictional', permission: 'inbox', icon: 'i-tabler-masks-theater' },
] as const satisfies readonly { id: string; href: string; permission: Permission; icon: string }[];

export type NavId = (typeof NAV)[number]['id'];
