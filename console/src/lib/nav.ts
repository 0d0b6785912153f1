import type { Permission } from '../../../src/contract/console.ts';

/**
 * The console's navigation, in the order of a day's work (moderation, the fictional inbox, figures,
 * then administration): one entry per section, shown to the roles its permission names
 * (src/contract/console.ts PERMISSIONS). A new section adds its entry here, its `nav_<id>` message
 * to console/locales/{en,nl}.json and its page (docs/API.md "Console pages").
 */
export const NAV = [
  { id: 'members', href: '/console/members', permission: 'members.read', icon: 'i-tabler-users' },
  { id: 'photos', href: '/console/photos', permission: 'photos', icon: 'i-tabler-photo-check' },
  { id: 'complaints', href: '/console/complaints', permission: 'complaints', icon: 'i-tabler-flag' },
  { id: 'held', href: '/console/held', permission: 'held', icon: 'i-tabler-message-pause' },
  { id: 'inbox', href: '/console/inbox', permission: 'inbox', icon: 'i-tabler-inbox' },
  { id: 'fictional', href: '/console/fictional', permission: 'inbox', icon: 'i-tabler-masks-theater' },
  { id: 'safety', href: '/console/safety', permission: 'safety', icon: 'i-tabler-shield-check' },
  { id: 'revenue', href: '/console/revenue', permission: 'revenue', icon: 'i-tabler-chart-line' },
  { id: 'sources', href: '/console/sources', permission: 'sources', icon: 'i-tabler-route' },
  { id: 'experiments', href: '/console/experiments', permission: 'experiments', icon: 'i-tabler-flask' },
  { id: 'postbacks', href: '/console/postbacks', permission: 'postbacks', icon: 'i-tabler-send' },
  { id: 'audit', href: '/console/audit', permission: 'audit', icon: 'i-tabler-list-search' },
  { id: 'staff', href: '/console/staff', permission: 'staff', icon: 'i-tabler-id-badge-2' },
] as const satisfies readonly { id: string; href: string; permission: Permission; icon: string }[];

export type NavId = (typeof NAV)[number]['id'];
