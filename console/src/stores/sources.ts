import { queryStore } from './query.ts';

/** The sources table's filters as GET /api/console/sources takes them. */
export const SOURCE_FILTERS = ['brand', 'from', 'to'] as const;
export type SourceFilters = Partial<Record<(typeof SOURCE_FILTERS)[number], string>>;

/** The traffic sources table (console/src/pages/[locale]/sources.astro). */
export const { $state: $sources, load: loadSources } = queryStore<'GET sources', SourceFilters>('GET sources');
