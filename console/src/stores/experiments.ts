import { atom } from '../../../src/stores/browser-only.ts';
import { consoleApi } from '../lib/api.ts';
import { queryStore } from './query.ts';

/** The experiments table's filters as GET /api/console/experiments takes them (`brand` required). */
export const EXPERIMENT_FILTERS = ['brand', 'from', 'to'] as const;
export type ExperimentFilters = Partial<Record<(typeof EXPERIMENT_FILTERS)[number], string>>;

/** The lander experiments of one brand (console/src/pages/[locale]/experiments.astro); asked once a brand is chosen. */
export const { $state: $experiments, load: loadExperiments } = queryStore<'GET experiments', ExperimentFilters>('GET experiments', (filters) => Boolean(filters.brand));

/** What the last action did, for the page's confirmation. */
export const $experimentDone = atom('');

/** Ends a variant of the brand (audited) and reads the table again; a refusal is thrown for the dialog to show. */
export async function endVariant(brand: string, variant: string, done: string): Promise<void> {
  await consoleApi('POST experiments/end', { query: { brand }, body: { variant } });
  await loadExperiments($experiments.get().filters);
  $experimentDone.set(done);
}
