import { atom } from '../../../src/stores/browser-only.ts';
import { consoleApi, ConsoleApiError, type AnswerOf, type ConsoleCall } from '../lib/api.ts';
import { filtersToAddress } from '../lib/filters.ts';

/** A list or table read with filters: the filters asked, the answer, whether it is under way, the refusal. */
export interface QueryState<K extends ConsoleCall, F> {
  filters: F;
  result: AnswerOf<K> | null;
  loading: boolean;
  error: string;
}

/**
 * The store of a page that reads one GET call with the filters of its address (members, sources,
 * experiments): `load(filters)` writes them to the address and asks; an older answer arriving
 * late is dropped. `ready` says whether the filters are enough to ask (a required brand).
 */
export function queryStore<K extends ConsoleCall, F extends Record<string, string | undefined>>(call: K, ready: (filters: F) => boolean = () => true) {
  const $state = atom<QueryState<K, F>>({ filters: {} as F, result: null, loading: false, error: '' });
  let asked = 0;
  async function load(filters: F): Promise<void> {
    const mine = ++asked;
    filtersToAddress(filters);
    if (!ready(filters)) return $state.set({ filters, result: null, loading: false, error: '' });
    $state.set({ ...$state.get(), filters, loading: true, error: '' });
    try {
      const result = await consoleApi(call, { query: filters });
      if (mine === asked) $state.set({ filters, result, loading: false, error: '' });
    } catch (e) {
      if (mine === asked) $state.set({ ...$state.get(), loading: false, error: e instanceof ConsoleApiError ? e.message : String(e) });
    }
  }
  return { $state, load };
}
