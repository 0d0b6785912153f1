/**
 * The traffic sources (issue 23): per network and ref, visits, signups, activations, purchases,
 * refunds and chargebacks, and money per currency (never added across currencies), for a brand or
 * every brand in scope and a range of the brands' days; the same table as CSV.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { useStore } from '@nanostores/react';
import type { ConsoleLocale } from '../../../src/lib/console-locale.ts';
import { m } from '../paraglide/messages.js';
import { $me, loadMe } from '../stores/staff.ts';
import { $sources, SOURCE_FILTERS, loadSources, type SourceFilters } from '../stores/sources.ts';
import { filtersFromAddress } from '../lib/filters.ts';
import { formatCents, formatDate, formatPercent } from '../lib/format.ts';
import Alert from '../components/Alert.tsx';
import RangeFilters from '../components/RangeFilters.tsx';

export default function SourcesIsland({ locale }: { locale: ConsoleLocale }) {
  const o = { locale };
  const me = useStore($me);
  const { result, loading, error } = useStore($sources);
  const [form, setForm] = useState<SourceFilters>({});
  useEffect(() => {
    const initial = filtersFromAddress(SOURCE_FILTERS);
    setForm(initial);
    void loadMe().catch(() => undefined);
    void loadSources(initial);
  }, []);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void loadSources(form);
  };
  const csv = result ? `/api/console/sources?${new URLSearchParams({ ...(result.brand ? { brand: result.brand } : {}), from: result.from!, to: result.to!, format: 'csv' })}` : undefined;

  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-xl font-bold">{m.nav_sources({}, o)}</h1>
      <RangeFilters locale={locale} brands={me?.brands ?? []} anyBrand form={form} onChange={setForm} onSubmit={submit} loading={loading} csv={csv} />
      <Alert>{error}</Alert>
      <div className="panel relative overflow-x-auto" aria-busy={loading}>
        <table className="data-table">
          <caption className="p-2 text-left text-sm text-slate-600">{result ? m.sources_caption({ from: formatDate(result.from, locale), to: formatDate(result.to, locale) }, o) : m.nav_sources({}, o)}</caption>
          <thead>
            <tr>
              <th scope="col">{m.col_network({}, o)}</th>
              <th scope="col">{m.col_ref({}, o)}</th>
              <th scope="col" className="num">{m.col_visits({}, o)}</th>
              <th scope="col" className="num">{m.col_signups({}, o)}</th>
              <th scope="col" className="num">{m.col_activations({}, o)}</th>
              <th scope="col" className="num">{m.col_activation_rate({}, o)}</th>
              <th scope="col" className="num">{m.col_first_purchases({}, o)}</th>
              <th scope="col" className="num">{m.col_repeat_purchases({}, o)}</th>
              <th scope="col" className="num">{m.col_refunds({}, o)}</th>
              <th scope="col" className="num">{m.col_chargebacks({}, o)}</th>
              <th scope="col">{m.col_money({}, o)}</th>
            </tr>
          </thead>
          <tbody>
            {result?.sources.map((s) => (
              <tr key={`${s.network}\u0000${s.ref}`}>
                <td>{s.network || <span className="text-slate-500">{m.no_source({}, o)}</span>}</td>
                <td>{s.ref}</td>
                <td className="num">{s.visits}</td>
                <td className="num">{s.signups}</td>
                <td className="num">{s.activations}</td>
                <td className="num">{formatPercent(s.activation_rate, locale)}</td>
                <td className="num">{s.first_purchases}</td>
                <td className="num">{s.repeat_purchases}</td>
                <td className="num">{s.refunds}</td>
                <td className="num">{s.chargebacks}</td>
                <td className="min-w-64 text-sm">
                  {s.money.map((money) => (
                    <p key={money.currency}>
                      {m.money_line(
                        {
                          currency: money.currency,
                          revenue: formatCents(money.revenue, money.currency, locale),
                          refunded: formatCents(money.refunded, money.currency, locale),
                          charged_back: formatCents(money.charged_back, money.currency, locale),
                          net: formatCents(money.net, money.currency, locale),
                          per_signup: formatCents(money.net_per_signup, money.currency, locale),
                        },
                        o,
                      )}
                    </p>
                  ))}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {result && result.sources.length === 0 && <p className="p-4 text-sm text-slate-600">{m.sources_none({}, o)}</p>}
        {!result && loading && <p className="p-4 text-sm text-slate-600">{m.loading({}, o)}</p>}
      </div>
      <p className="text-sm text-slate-600">{m.sources_note({}, o)}</p>
    </div>
  );
}
