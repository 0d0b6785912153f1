/**
 * Revenue (issue 23): per brand, period and currency, never summed across currencies; signups,
 * activations, first purchases and credits per brand and period. Two charts, each with its table
 * beneath, the range and grouping in the address, a CSV of each table with the same filters, and
 * a brand whose chargebacks pass 0.9% of its purchases flagged.
 */
import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { useStore } from '@nanostores/react';
import { REVENUE_GROUPS } from '../../../src/contract/console.ts';
import type { ConsoleLocale } from '../../../src/lib/console-locale.ts';
import { m } from '../paraglide/messages.js';
import { $me, loadMe } from '../stores/staff.ts';
import { $revenue, loadRevenue, revenueCsvHref, REVENUE_FILTERS, type RevenueFilters } from '../stores/revenue.ts';
import { filtersFromAddress } from '../lib/filters.ts';
import { label } from '../lib/labels.ts';
import { formatCents, formatPercent } from '../lib/format.ts';
import Alert from '../components/Alert.tsx';
import LineChart from '../components/LineChart.tsx';

export default function RevenueIsland({ locale }: { locale: ConsoleLocale }) {
  const o = { locale };
  const me = useStore($me);
  const { result, loading, error, filters } = useStore($revenue);
  const [form, setForm] = useState<RevenueFilters>({});
  useEffect(() => {
    const initial = filtersFromAddress(REVENUE_FILTERS);
    setForm(initial);
    void loadMe().catch(() => undefined);
    void loadRevenue(initial);
  }, []);
  const set = (name: keyof RevenueFilters) => (e: { target: { value: string } }) => setForm({ ...form, [name]: e.target.value });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void loadRevenue(form);
  };
  const brands = me?.brands ?? [];
  const brandName = (id: string) => brands.find((b) => b.id === id)?.name ?? id;
  const group = label(`group_${result?.group ?? 'day'}`, locale).toLowerCase();

  // The charts add up the brands shown, per currency (money) and in all (members).
  const charts = useMemo(() => {
    if (!result) return null;
    const index = new Map(result.periods.map((p, i) => [p, i]));
    const currencies = [...new Set(result.money.map((r) => r.currency))].sort();
    const revenue = currencies.map((currency) => {
      const values = result.periods.map(() => 0);
      for (const r of result.money) if (r.currency === currency) values[index.get(r.period)!]! += r.net_revenue / 100;
      return { label: currency, values };
    });
    const signups = result.periods.map(() => 0);
    const firsts = result.periods.map(() => 0);
    for (const r of result.members) {
      signups[index.get(r.period)!]! += r.signups;
      firsts[index.get(r.period)!]! += r.first_purchases;
    }
    return { revenue, funnel: [{ label: m.col_signups({}, o), values: signups }, { label: m.col_first({}, o), values: firsts }] };
  }, [result, locale]);

  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-xl font-bold">{m.nav_revenue({}, o)}</h1>
      <form className="panel grid grid-cols-2 gap-3 p-3 md:grid-cols-5" onSubmit={submit} aria-label={m.nav_revenue({}, o)}>
        <div>
          <label className="label" htmlFor="r-brand">{m.brand({}, o)}</label>
          <select id="r-brand" className="field" value={form.brand ?? ''} onChange={set('brand')}>
            <option value="">{m.any({}, o)}</option>
            {brands.map((b) => <option key={b.id} value={b.id}>{b.name}</option>)}
          </select>
        </div>
        <div>
          <label className="label" htmlFor="r-from">{m.range_from({}, o)}</label>
          <input id="r-from" className="field" type="date" value={form.from ?? result?.from ?? ''} onChange={set('from')} />
        </div>
        <div>
          <label className="label" htmlFor="r-to">{m.range_to({}, o)}</label>
          <input id="r-to" className="field" type="date" value={form.to ?? result?.to ?? ''} onChange={set('to')} />
        </div>
        <div>
          <label className="label" htmlFor="r-group">{m.group({}, o)}</label>
          <select id="r-group" className="field" value={form.group ?? 'day'} onChange={set('group')}>
            {REVENUE_GROUPS.map((g) => <option key={g} value={g}>{label(`group_${g}`, locale)}</option>)}
          </select>
        </div>
        <div className="flex items-end">
          <button className="btn-primary" disabled={loading}>{m.show({}, o)}</button>
        </div>
      </form>
      <Alert>{error}</Alert>
      {result?.disputes.filter((d) => d.flagged).map((d) => (
        <p key={d.brand} role="alert" className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900" data-testid="dispute-flag">
          <span className="i-tabler-alert-triangle mr-1" aria-hidden="true" />
          {m.dispute_flag({ brand: brandName(d.brand), rate: formatPercent(d.rate, locale) }, o)}
        </p>
      ))}
      {result && charts && (
        <>
          <section className="panel flex flex-col gap-2 p-3" aria-labelledby="chart-revenue">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <h2 id="chart-revenue" className="text-base font-semibold">{m.chart_revenue({ group }, o)}</h2>
              <a className="btn-light" href={revenueCsvHref(filters, 'money')} download>{m.download_csv({}, o)}</a>
            </div>
            <LineChart periods={result.periods} series={charts.revenue} xLabel={m.col_period({}, o)} label={`${m.chart_revenue({ group }, o)}. ${m.chart_note({}, o)}`} />
            <div className="overflow-x-auto">
              <table className="data-table">
                <caption className="sr-only">{m.chart_revenue({ group }, o)}</caption>
                <thead>
                  <tr>
                    <th scope="col">{m.col_period({}, o)}</th>
                    <th scope="col">{m.brand({}, o)}</th>
                    <th scope="col">{m.col_currency({}, o)}</th>
                    <th scope="col" className="num">{m.col_purchases({}, o)}</th>
                    <th scope="col" className="num">{m.col_gross({}, o)}</th>
                    <th scope="col" className="num hidden lg:table-cell">{m.col_net({}, o)}</th>
                    <th scope="col" className="num hidden lg:table-cell">{m.col_first({}, o)}</th>
                    <th scope="col" className="num hidden lg:table-cell">{m.col_repeat({}, o)}</th>
                    <th scope="col" className="num">{m.col_refunds({}, o)}</th>
                    <th scope="col" className="num">{m.col_chargebacks({}, o)}</th>
                    <th scope="col" className="num">{m.col_net_revenue({}, o)}</th>
                    <th scope="col" className="num hidden xl:table-cell">{m.col_paying({}, o)}</th>
                    <th scope="col" className="num hidden xl:table-cell">{m.col_arppu({}, o)}</th>
                    <th scope="col" className="num">{m.col_dispute({}, o)}</th>
                  </tr>
                </thead>
                <tbody>
                  {result.money.map((r) => (
                    <tr key={`${r.brand}|${r.period}|${r.currency}`}>
                      <td className="whitespace-nowrap">{r.period}</td>
                      <td className="whitespace-nowrap">{brandName(r.brand)}</td>
                      <td>{r.currency}</td>
                      <td className="num">{r.purchases}</td>
                      <td className="num">{formatCents(r.gross, r.currency, locale)}</td>
                      <td className="num hidden lg:table-cell">{formatCents(r.net, r.currency, locale)}</td>
                      <td className="num hidden lg:table-cell">{r.first_purchases}</td>
                      <td className="num hidden lg:table-cell">{r.repeat_purchases}</td>
                      <td className="num">{r.refunds.count} · {formatCents(r.refunds.amount, r.currency, locale)}</td>
                      <td className="num">{r.chargebacks.count} · {formatCents(r.chargebacks.amount, r.currency, locale)}</td>
                      <td className="num font-medium">{formatCents(r.net_revenue, r.currency, locale)}</td>
                      <td className="num hidden xl:table-cell">{r.paying_members}</td>
                      <td className="num hidden xl:table-cell">{formatCents(r.arppu, r.currency, locale)}</td>
                      <td className={`num ${r.dispute_flag ? 'font-semibold text-red-700' : ''}`}>{formatPercent(r.dispute_rate, locale)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
              {result.money.length === 0 && <p className="p-3 text-sm text-slate-600">{m.revenue_none({}, o)}</p>}
            </div>
          </section>
          <section className="panel flex flex-col gap-2 p-3" aria-labelledby="chart-funnel">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <h2 id="chart-funnel" className="text-base font-semibold">{m.chart_funnel({ group }, o)}</h2>
              <a className="btn-light" href={revenueCsvHref(filters, 'members')} download>{m.download_csv({}, o)}</a>
            </div>
            <LineChart periods={result.periods} series={charts.funnel} xLabel={m.col_period({}, o)} label={`${m.chart_funnel({ group }, o)}. ${m.chart_note({}, o)}`} />
            <div className="overflow-x-auto">
              <table className="data-table">
                <caption className="sr-only">{m.chart_funnel({ group }, o)}</caption>
                <thead>
                  <tr>
                    <th scope="col">{m.col_period({}, o)}</th>
                    <th scope="col">{m.brand({}, o)}</th>
                    <th scope="col" className="num">{m.col_signups({}, o)}</th>
                    <th scope="col" className="num">{m.col_activations({}, o)}</th>
                    <th scope="col" className="num">{m.col_first({}, o)}</th>
                    <th scope="col" className="num">{m.col_conversion({}, o)}</th>
                    <th scope="col" className="num hidden lg:table-cell">{m.col_paying({}, o)}</th>
                    <th scope="col" className="num hidden lg:table-cell">{m.col_credits_sold({}, o)}</th>
                    <th scope="col" className="num hidden lg:table-cell">{m.col_credits_spent({}, o)}</th>
                  </tr>
                </thead>
                <tbody>
                  {result.members.map((r) => (
                    <tr key={`${r.brand}|${r.period}`}>
                      <td className="whitespace-nowrap">{r.period}</td>
                      <td className="whitespace-nowrap">{brandName(r.brand)}</td>
                      <td className="num">{r.signups}</td>
                      <td className="num">{r.activations}</td>
                      <td className="num">{r.first_purchases}</td>
                      <td className="num">{formatPercent(r.conversion, locale)}</td>
                      <td className="num hidden lg:table-cell">{r.paying_members}</td>
                      <td className="num hidden lg:table-cell">{r.credits.sold}</td>
                      <td className="num hidden lg:table-cell">{r.credits.spent}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </section>
        </>
      )}
      {!result && loading && <p className="text-sm text-slate-600">{m.loading({}, o)}</p>}
    </div>
  );
}
