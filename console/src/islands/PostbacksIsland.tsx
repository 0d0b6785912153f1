/**
 * Postbacks to affiliate networks (issue 23): each brand's configuration (credentials hidden) and
 * every attempt, newest first: event, network, URL sent, the network's answer, time; a postback
 * can be sent again (audited).
 */
import { useEffect, useState } from 'react';
import { useStore } from '@nanostores/react';
import type { ConsoleLocale } from '../../../src/lib/console-locale.ts';
import { m } from '../paraglide/messages.js';
import { $me, loadMe } from '../stores/staff.ts';
import { $postbacks, loadPostbacks, resendPostback } from '../stores/postbacks.ts';
import { filtersFromAddress } from '../lib/filters.ts';
import { formatDateTime } from '../lib/format.ts';
import Alert from '../components/Alert.tsx';
import Pager from '../components/Pager.tsx';

export default function PostbacksIsland({ locale }: { locale: ConsoleLocale }) {
  const o = { locale };
  const me = useStore($me);
  const { result, loading, error, done, brand } = useStore($postbacks);
  const [pages, setPages] = useState<number[]>([]);
  useEffect(() => {
    void loadMe().catch(() => undefined);
    void loadPostbacks(filtersFromAddress(['brand']).brand ?? '');
  }, []);
  const brands = me?.brands ?? [];
  const brandName = (id: string) => brands.find((b) => b.id === id)?.name ?? id;
  const csv = `/api/console/postbacks?${new URLSearchParams({ ...(brand ? { brand } : {}), format: 'csv' })}`;

  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-xl font-bold">{m.nav_postbacks({}, o)}</h1>
      <div className="panel flex flex-wrap items-end gap-3 p-3">
        <div>
          <label className="label" htmlFor="p-brand">{m.brand({}, o)}</label>
          <select id="p-brand" className="field" value={brand} onChange={(e) => { setPages([]); void loadPostbacks(e.target.value); }}>
            <option value="">{m.any({}, o)}</option>
            {brands.map((b) => <option key={b.id} value={b.id}>{b.name}</option>)}
          </select>
        </div>
        <a className="btn-light" href={csv} download>{m.download_csv({}, o)}</a>
      </div>
      <Alert>{error}</Alert>
      <Alert tone="success">{done}</Alert>
      {result && (
        <section className="panel p-3" aria-labelledby="pb-config">
          <h2 id="pb-config" className="mb-2 text-base font-semibold">{m.postbacks_config({}, o)}</h2>
          {result.config.map((c) => (
            <div key={c.brand} className="mb-2">
              <h3 className="text-sm font-medium">{brandName(c.brand)}</h3>
              {c.postbacks.length === 0 ? (
                <p className="text-sm text-slate-600">{m.postbacks_config_none({}, o)}</p>
              ) : (
                <ul className="text-sm">
                  {c.postbacks.map((p) => (
                    <li key={p.network} className="break-all"><strong>{p.network}</strong> · {p.events.join(', ')} · <code>{p.url}</code></li>
                  ))}
                </ul>
              )}
            </div>
          ))}
        </section>
      )}
      <div className="panel overflow-x-auto" aria-busy={loading}>
        <table className="data-table">
          <caption className="sr-only">{m.nav_postbacks({}, o)}</caption>
          <thead>
            <tr>
              <th scope="col">{m.col_time({}, o)}</th>
              <th scope="col">{m.brand({}, o)}</th>
              <th scope="col">{m.col_event({}, o)}</th>
              <th scope="col">{m.col_network({}, o)}</th>
              <th scope="col">{m.col_answer({}, o)}</th>
              <th scope="col">{m.status({}, o)}</th>
              <th scope="col" className="hidden lg:table-cell">{m.col_url({}, o)}</th>
              <th scope="col"><span className="sr-only">{m.actions({}, o)}</span></th>
            </tr>
          </thead>
          <tbody>
            {result?.attempts.map((a) => (
              <tr key={a.id}>
                <td className="whitespace-nowrap">{formatDateTime(a.at, locale)}</td>
                <td className="whitespace-nowrap">{brandName(a.brand)}</td>
                <td>{a.event}</td>
                <td>{a.network}</td>
                <td className={a.status_code !== null && a.status_code < 400 ? 'text-emerald-700' : 'text-red-700'}>{a.status_code ?? `${m.no_answer({}, o)}: ${a.error ?? ''}`}</td>
                <td>{a.status}</td>
                <td className="hidden max-w-96 truncate lg:table-cell" title={a.url}><code>{a.url}</code></td>
                <td>
                  <button type="button" className="btn-light" onClick={() => void resendPostback(a.postback_id, m.postback_resent({ id: a.postback_id }, o))}>
                    {m.postback_resend({}, o)}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {result && result.attempts.length === 0 && <p className="p-4 text-sm text-slate-600">{m.postbacks_none({}, o)}</p>}
      </div>
      {result && (pages.length > 0 || result.before !== null) && (
        <Pager
          locale={locale}
          page={pages.length + 1}
          more={result.before !== null}
          onPage={(p) => {
            // Pages go back through the ids they started before.
            const next = p > pages.length + 1 ? [...pages, result.before!] : pages.slice(0, p - 1);
            setPages(next);
            void loadPostbacks(brand, next.at(-1));
          }}
        />
      )}
    </div>
  );
}
