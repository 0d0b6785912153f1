import { atom } from '../../../src/stores/browser-only.ts';
import { consoleApi, ConsoleApiError, type AnswerOf } from '../lib/api.ts';
import { filtersToAddress } from '../lib/filters.ts';

/** The experiments table's filters as GET /api/console/experiments takes them (`brand` required). */
export const EXPERIMENT_FILTERS = ['brand', 'from', 'to'] as const;
export type ExperimentFilters = Partial<Record<(typeof EXPERIMENT_FILTERS)[number], string>>;

export interface ExperimentsState {
  filters: ExperimentFilters;
  result: AnswerOf<'GET experiments'> | null;
  loading: boolean;
  error: string;
  /** What the last action did, for the page's confirmation. */
  done: string;
}

/** The lander experiments of one brand (console/src/pages/[locale]/experiments.astro). */
export const $experiments = atom<ExperimentsState>({ filters: {}, result: null, loading: false, error: '', done: '' });

let asked = 0;

/** Reads the experiments for these filters (the address follows); an older answer arriving late is dropped. */
export async function loadExperiments(filters: ExperimentFilters): Promise<void> {
  const mine = ++asked;
  filtersToAddress(filters);
  $experiments.set({ ...$experiments.get(), filters, loading: true, error: '' });
  if (!filters.brand) return $experiments.set({ ...$experiments.get(), result: null, loading: false });
  try {
    const result = await consoleApi('GET experiments', { query: filters });
    if (mine === asked) $experiments.set({ ...$experiments.get(), filters, result, loading: false, error: '' });
  } catch (e) {
    if (mine === asked) $experiments.set({ ...$experiments.get(), loading: false, error: e instanceof ConsoleApiError ? e.message : String(e) });
  }
}

/** Ends a variant of the brand (audited) and reads the table again; a refusal is thrown for the dialog to show. */
export async function endVariant(brand: string, variant: string, done: string): Promise<void> {
  await consoleApi('POST experiments/end', { query: { brand }, body: { variant } });
  await loadExperiments($experiments.get().filters);
  $experiments.set({ ...$experiments.get(), done });
}
