/**
 * The lander experiments of a brand (issue 23): per lander (niche, locale) and variant, the funnel,
 * each step's conversion with its 95% Wilson interval and its two-proportion z-test against the
 * control (the method named on the page), revenue per currency, and ending a variant (audited).
 */
import { useEffect, useState, type FormEvent } from 'react';
import { useStore } from '@nanostores/react';
import type { ConsoleLocale } from '../../../src/lib/console-locale.ts';
import { m } from '../paraglide/messages.js';
import { $me, loadMe } from '../stores/staff.ts';
import { $experimentDone, $experiments, EXPERIMENT_FILTERS, endVariant, loadExperiments, type ExperimentFilters } from '../stores/experiments.ts';
import { filtersFromAddress } from '../lib/filters.ts';
import { formatCents, formatP, formatPercent } from '../lib/format.ts';
import type { AnswerOf } from '../lib/api.ts';
import Alert from '../components/Alert.tsx';
import ActionDialog from '../components/ActionDialog.tsx';
import RangeFilters from '../components/RangeFilters.tsx';

type Variant = AnswerOf<'GET experiments'>['experiments'][number]['variants'][number];
const STEPS = ['signup', 'activation', 'first_purchase'] as const;

export default function ExperimentsIsland({ locale }: { locale: ConsoleLocale }) {
  const o = { locale };
  const me = useStore($me);
  const { result, loading, error, filters } = useStore($experiments);
  const done = useStore($experimentDone);
  const [form, setForm] = useState<ExperimentFilters>({});
  const [ending, setEnding] = useState<string | null>(null);
  useEffect(() => {
    const initial = filtersFromAddress(EXPERIMENT_FILTERS);
    setForm(initial);
    void loadMe()
      .then((staff) => {
        // One brand in scope: it is the brand.
        const only = !initial.brand && staff.brands.length === 1 ? { ...initial, brand: staff.brands[0]!.id } : initial;
        setForm(only);
        return loadExperiments(only);
      })
      .catch(() => undefined);
  }, []);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void loadExperiments(form);
  };
  const brand = filters.brand;
  const csv = result ? `/api/console/experiments?${new URLSearchParams({ brand: result.brand, ...(result.from ? { from: result.from } : {}), ...(result.to ? { to: result.to } : {}), format: 'csv' })}` : undefined;
  const step = (v: Variant, name: (typeof STEPS)[number]) => {
    const c = v.conversion[name];
    return (
      <td key={name} className="num min-w-36">
        <span className="font-medium">{formatPercent(c.rate, locale)}</span>
        {c.interval && <span className="block text-xs text-slate-600">{m.conversion_interval({ low: formatPercent(c.interval.low, locale), high: formatPercent(c.interval.high, locale) }, o)}</span>}
        {c.versus_control && (
          <span className={`block text-xs ${c.versus_control.significant ? 'font-semibold text-emerald-700' : 'text-slate-500'}`}>
            {(c.versus_control.significant ? m.versus_control_significant : m.versus_control_not)({ p: formatP(c.versus_control.p, locale) }, o)}
          </span>
        )}
      </td>
    );
  };

  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-xl font-bold">{m.nav_experiments({}, o)}</h1>
      <RangeFilters locale={locale} brands={me?.brands ?? []} anyBrand={false} form={form} onChange={setForm} onSubmit={submit} loading={loading} csv={csv} />
      <p className="text-sm text-slate-700">{m.experiments_method({}, o)}</p>
      <Alert>{error}</Alert>
      <Alert tone="success">{done}</Alert>
      {result?.experiments.map((e) => (
        <div key={`${e.lander}-${e.niche}-${e.locale}`} className="panel relative overflow-x-auto" aria-busy={loading}>
          <table className="data-table">
            <caption className="p-2 text-left font-semibold">{m.experiment_caption({ lander: e.lander, niche: e.niche, locale: e.locale }, o)}</caption>
            <thead>
              <tr>
                <th scope="col">{m.col_variant({}, o)}</th>
                <th scope="col" className="num">{m.col_weight({}, o)}</th>
                <th scope="col" className="num">{m.col_visits({}, o)}</th>
                <th scope="col" className="num">{m.col_signups({}, o)}</th>
                <th scope="col" className="num">{m.col_activations({}, o)}</th>
                <th scope="col" className="num">{m.col_first_purchases({}, o)}</th>
                {STEPS.map((s) => <th key={s} scope="col" className="num">{m[`step_${s}`]({}, o)}</th>)}
                <th scope="col">{m.col_money({}, o)}</th>
                <th scope="col"><span className="sr-only">{m.actions({}, o)}</span></th>
              </tr>
            </thead>
            <tbody>
              {e.variants.map((v) => (
                <tr key={v.variant}>
                  <th scope="row" className="text-left">
                    {v.variant}
                    {v.ended && <span className="ml-2 rounded bg-slate-200 px-1.5 py-0.5 text-xs text-slate-700">{m.variant_ended({}, o)}</span>}
                  </th>
                  <td className="num">{v.weight ?? '—'}</td>
                  <td className="num">{v.visits}</td>
                  <td className="num">{v.signups}</td>
                  <td className="num">{v.activations}</td>
                  <td className="num">{v.first_purchases}</td>
                  {STEPS.map((s) => step(v, s))}
                  <td className="text-sm">{v.money.map((money) => <p key={money.currency}>{formatCents(money.revenue, money.currency, locale)}</p>)}</td>
                  <td>
                    {v.variant !== 'control' && !v.ended && brand && (
                      <button type="button" className="btn-light whitespace-nowrap" onClick={() => setEnding(v.variant)}>
                        {m.end_variant({}, o)} <span className="sr-only">{v.variant}</span>
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ))}
      {result && result.experiments.length === 0 && <p className="panel p-4 text-sm text-slate-600">{m.experiments_none({}, o)}</p>}
      {!result && loading && <p className="p-4 text-sm text-slate-600">{m.loading({}, o)}</p>}
      {ending && brand && (
        <ActionDialog
          locale={locale}
          title={m.end_variant_title({ variant: ending }, o)}
          submit={m.end_variant({}, o)}
          danger
          noReason
          onClose={() => setEnding(null)}
          onConfirm={() => endVariant(brand, ending, m.variant_ended_done({ variant: ending }, o))}
        >
          <p className="text-sm">{m.end_variant_text({ variant: ending }, o)}</p>
        </ActionDialog>
      )}
    </div>
  );
}
