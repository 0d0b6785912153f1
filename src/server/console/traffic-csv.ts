import type { Result } from '../http/routes.ts';
import type { Money, TrafficService } from '../services/traffic.ts';
import { csv, type CsvColumn } from './csv.ts';

/**
 * The CSV downloads of the traffic tables (issue 23), one line per row of the JSON answer. Money
 * has a column per currency present (never summed across currencies), in units with two decimals;
 * rates are fractions (0.25), as in the JSON answer.
 */
type Sources = Awaited<ReturnType<TrafficService['sources']>>;
type Experiments = Awaited<ReturnType<TrafficService['experiments']>>;

const units = (cents: number | null | undefined) => (cents === null || cents === undefined ? null : (cents / 100).toFixed(2));

/** Money columns per currency found in the rows: revenue, refunded, charged back, net, net per signup. */
function moneyColumns<Row extends { money: Money[] }>(rows: readonly Row[]): CsvColumn<Row>[] {
  const currencies = [...new Set(rows.flatMap((r) => r.money.map((m) => m.currency)))].sort();
  const fields = [['revenue', 'revenue'], ['refunded', 'refunded'], ['charged_back', 'charged back'], ['net', 'net revenue'], ['net_per_signup', 'net revenue per signup']] as const;
  return currencies.flatMap((currency) =>
    fields.map(([field, label]) => ({ header: `${label} ${currency}`, value: (row: Row) => units(row.money.find((m) => m.currency === currency)?.[field] ?? (field === 'net_per_signup' ? null : 0)) })),
  );
}

export function sourcesCsv(figures: Sources): Result {
  type Row = Sources['sources'][number];
  const columns: CsvColumn<Row>[] = [
    { header: 'network', value: (r) => r.network },
    { header: 'ref', value: (r) => r.ref },
    { header: 'visits', value: (r) => r.visits },
    { header: 'signups', value: (r) => r.signups },
    { header: 'activations', value: (r) => r.activations },
    { header: 'activation rate', value: (r) => r.activation_rate },
    { header: 'first purchases', value: (r) => r.first_purchases },
    { header: 'further purchases', value: (r) => r.repeat_purchases },
    { header: 'refunds', value: (r) => r.refunds },
    { header: 'chargebacks', value: (r) => r.chargebacks },
    ...moneyColumns(figures.sources),
  ];
  return csv(`sources-${figures.brand ?? 'all'}-${figures.from}-${figures.to}`, figures.sources, columns);
}

export function experimentsCsv(figures: Experiments): Result {
  type Row = Experiments['experiments'][number]['variants'][number];
  const rows = figures.experiments.flatMap((e) => e.variants);
  const step = (name: keyof Row['conversion'], label: string): CsvColumn<Row>[] => [
    { header: `${label} rate`, value: (r) => r.conversion[name].rate },
    { header: `${label} 95% low`, value: (r) => r.conversion[name].interval?.low },
    { header: `${label} 95% high`, value: (r) => r.conversion[name].interval?.high },
    { header: `${label} p vs control`, value: (r) => r.conversion[name].versus_control?.p },
    { header: `${label} significant`, value: (r) => r.conversion[name].versus_control?.significant },
  ];
  const columns: CsvColumn<Row>[] = [
    { header: 'lander', value: (r) => r.lander },
    { header: 'niche', value: (r) => r.niche },
    { header: 'locale', value: (r) => r.locale },
    { header: 'variant', value: (r) => r.variant },
    { header: 'weight', value: (r) => r.weight },
    { header: 'ended', value: (r) => r.ended },
    { header: 'visits', value: (r) => r.visits },
    { header: 'signups', value: (r) => r.signups },
    { header: 'activations', value: (r) => r.activations },
    { header: 'first purchases', value: (r) => r.first_purchases },
    ...step('signup', 'signup'),
    ...step('activation', 'activation'),
    ...step('first_purchase', 'first purchase'),
    ...moneyColumns(rows),
  ];
  return csv(`experiments-${figures.brand}`, rows, columns);
}
