import { atom } from '../../../src/stores/browser-only.ts';
import { consoleApi, ConsoleApiError, type AnswerOf } from '../lib/api.ts';
import { filtersToAddress } from '../lib/filters.ts';

/** The audit log's filters as GET /api/console/audit takes them (`before`: the page of entries older than that id). */
export const AUDIT_FILTERS = ['brand', 'staff', 'action', 'q', 'before'] as const;
export type AuditFilters = Partial<Record<(typeof AUDIT_FILTERS)[number], string>>;

export interface AuditState {
  filters: AuditFilters;
  result: AnswerOf<'GET audit'> | null;
  /** The `before` of each page shown so far, to go back to a newer page. */
  trail: (string | undefined)[];
  loading: boolean;
  error: string;
}

/** The audit log page (console/src/pages/[locale]/audit.astro). */
export const $audit = atom<AuditState>({ filters: {}, result: null, trail: [], loading: false, error: '' });

let asked = 0;

export async function searchAudit(filters: AuditFilters, trail: (string | undefined)[] = []): Promise<void> {
  const mine = ++asked;
  filtersToAddress(filters);
  $audit.set({ ...$audit.get(), filters, trail, loading: true, error: '' });
  try {
    const result = await consoleApi('GET audit', { query: filters });
    if (mine === asked) $audit.set({ filters, result, trail, loading: false, error: '' });
  } catch (e) {
    if (mine === asked) $audit.set({ ...$audit.get(), loading: false, error: e instanceof ConsoleApiError ? e.message : String(e) });
  }
}

/** The next (older) page. */
export function olderAudit(): void {
  const { filters, result, trail } = $audit.get();
  if (result?.before) void searchAudit({ ...filters, before: String(result.before) }, [...trail, filters.before]);
}

/** Back to the newer page. */
export function newerAudit(): void {
  const { filters, trail } = $audit.get();
  void searchAudit({ ...filters, before: trail.at(-1) }, trail.slice(0, -1));
}
