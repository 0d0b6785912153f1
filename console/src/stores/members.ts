import { queryStore } from './query.ts';

/** The members search's filters as GET /api/console/members takes them. */
export const MEMBER_FILTERS = ['q', 'brand', 'status', 'from', 'to', 'source', 'page'] as const;
export type MemberFilters = Partial<Record<(typeof MEMBER_FILTERS)[number], string>>;

/** The members search (console/src/pages/[locale]/members.astro): searches with these filters, the address following. */
export const { $state: $members, load: searchMembers } = queryStore<'GET members', MemberFilters>('GET members');
