import type { ConsoleLocale } from '../../../src/lib/console-locale.ts';
import { m } from '../paraglide/messages.js';

/** Previous and next page of a console list of numbered pages. */
export default function Pager({ locale, page, more, onPage }: { locale: ConsoleLocale; page: number; more: boolean; onPage: (page: number) => void }) {
  const o = { locale };
  return (
    <nav className="flex items-center gap-3 text-sm" aria-label={m.pages({}, o)}>
      <button type="button" className="btn-light" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        <span className="i-tabler-chevron-left" aria-hidden="true" />
        {m.previous({}, o)}
      </button>
      <span className="text-slate-600">{m.page_n({ page }, o)}</span>
      <button type="button" className="btn-light" disabled={!more} onClick={() => onPage(page + 1)}>
        {m.next({}, o)}
        <span className="i-tabler-chevron-right" aria-hidden="true" />
      </button>
    </nav>
  );
}
