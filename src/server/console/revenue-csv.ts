import type { PostbackAttemptView, RevenueMembersRow, RevenueMoneyRow, RevenueView } from '../../contract/revenue.ts';
import type { Result } from '../http/routes.ts';
import { payoutOf } from '../../lib/postbacks.ts';
import { csv, type CsvColumn } from './csv.ts';

/**
 * The revenue page's tables and the postback log as CSV (issue 23), with the filters of the JSON
 * answer. Amounts are in the currency's major unit with a decimal point (`19.95`), as a
 * spreadsheet sums them; rates are fractions (`0.0125`).
 */
const amount = (cents: number | null | undefined) => (cents === null || cents === undefined ? '' : payoutOf(cents));
const fraction = (value: number | null) => (value === null ? '' : value.toFixed(4));

const MONEY: CsvColumn<RevenueMoneyRow>[] = [
  { header: 'brand', value: (r) => r.brand },
  { header: 'period', value: (r) => r.period },
  { header: 'currency', value: (r) => r.currency },
  { header: 'purchases', value: (r) => r.purchases },
  { header: 'gross', value: (r) => amount(r.gross) },
  { header: 'net_of_vat', value: (r) => amount(r.net) },
  { header: 'first_purchases', value: (r) => r.first_purchases },
  { header: 'repeat_purchases', value: (r) => r.repeat_purchases },
  { header: 'refunds', value: (r) => r.refunds.count },
  { header: 'refunds_amount', value: (r) => amount(r.refunds.amount) },
  { header: 'chargebacks', value: (r) => r.chargebacks.count },
  { header: 'chargebacks_amount', value: (r) => amount(r.chargebacks.amount) },
  { header: 'net_revenue', value: (r) => amount(r.net_revenue) },
  { header: 'paying_members', value: (r) => r.paying_members },
  { header: 'arppu', value: (r) => amount(r.arppu) },
  { header: 'dispute_rate', value: (r) => fraction(r.dispute_rate) },
  { header: 'dispute_flag', value: (r) => (r.dispute_flag ? 'yes' : '') },
];

const EUR: CsvColumn<RevenueMoneyRow>[] = [
  { header: 'eur_rate', value: (r) => r.eur?.rate ?? '' },
  { header: 'gross_eur', value: (r) => amount(r.eur?.gross) },
  { header: 'net_revenue_eur', value: (r) => amount(r.eur?.net_revenue) },
];

const MEMBERS: CsvColumn<RevenueMembersRow>[] = [
  { header: 'brand', value: (r) => r.brand },
  { header: 'period', value: (r) => r.period },
  { header: 'signups', value: (r) => r.signups },
  { header: 'activations', value: (r) => r.activations },
  { header: 'converted', value: (r) => r.converted },
  { header: 'conversion', value: (r) => fraction(r.conversion) },
  { header: 'first_purchases', value: (r) => r.first_purchases },
  { header: 'paying_members', value: (r) => r.paying_members },
  { header: 'credits_sold', value: (r) => r.credits.sold },
  { header: 'credits_spent', value: (r) => r.credits.spent },
  { header: 'credits_taken_back', value: (r) => r.credits.taken_back },
];

export function revenueCsv(figures: RevenueView, table: 'money' | 'members'): Result {
  const name = `revenue-${table}-${figures.from}-${figures.to}-${figures.group}`;
  if (table === 'members') return csv(name, figures.members, MEMBERS);
  return csv(name, figures.money, figures.eur_rates ? [...MONEY, ...EUR] : MONEY);
}


const ATTEMPTS: CsvColumn<PostbackAttemptView>[] = [
  { header: 'at', value: (r) => r.at },
  { header: 'brand', value: (r) => r.brand },
  { header: 'event', value: (r) => r.event },
  { header: 'network', value: (r) => r.network },
  { header: 'member_id', value: (r) => r.member_id },
  { header: 'url', value: (r) => r.url },
  { header: 'answer', value: (r) => r.status_code },
  { header: 'error', value: (r) => r.error },
  { header: 'duration_ms', value: (r) => r.duration_ms },
  { header: 'resend', value: (r) => (r.resend ? 'yes' : '') },
  { header: 'postback_id', value: (r) => r.postback_id },
  { header: 'postback_status', value: (r) => r.status },
];

export const postbacksCsv = (attempts: readonly PostbackAttemptView[]): Result => csv('postbacks', attempts, ATTEMPTS);
