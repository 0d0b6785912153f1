import type { RevenueGroup } from './console.ts';

/**
 * What GET /api/console/revenue answers (issue 23); the console's Revenue page imports these.
 * Money is in cents of the row's currency, never summed across currencies (EUR only where asked,
 * at the rate named). Purchases count by the day they were paid, refunds and chargebacks by the
 * day they were seen: a refund months later changes that later day, never the sale's.
 */

/** Per brand, period and currency. */
export interface RevenueMoneyRow {
  brand: string;
  period: string;
  currency: string;
  purchases: number;
  /** Paid, VAT included. */
  gross: number;
  /** Net of VAT, as the issued invoices say. */
  net: number;
  first_purchases: number;
  repeat_purchases: number;
  refunds: { count: number; amount: number };
  chargebacks: { count: number; amount: number };
  /** gross less refunds and chargebacks (VAT included). */
  net_revenue: number;
  /** Members with a paid purchase in this currency and period. */
  paying_members: number;
  /** Average net revenue per paying member (cents), null without one. */
  arppu: number | null;
  /** Chargebacks over purchases (counts); null without purchases. */
  dispute_rate: number | null;
  /** Above DISPUTE_RATE_FLAG. */
  dispute_flag: boolean;
  /** With `eur=1`: the same in EUR cents at `rate` (EUR per unit of the currency), null when no rate is configured. */
  eur?: { rate: number; gross: number; net: number; refunds: number; chargebacks: number; net_revenue: number } | null;
}

/** Per brand and period: what has no currency. */
export interface RevenueMembersRow {
  brand: string;
  period: string;
  signups: number;
  /** Members whose activation fell in the period. */
  activations: number;
  /** Of those, members who bought since (first-purchase conversion). */
  converted: number;
  conversion: number | null;
  first_purchases: number;
  /** Members with a paid purchase in the period, any currency. */
  paying_members: number;
  credits: { sold: number; spent: number; taken_back: number };
}

/** Per brand over the whole range: the chargeback rate the card schemes watch. */
export interface RevenueDisputeRow {
  brand: string;
  purchases: number;
  chargebacks: number;
  rate: number | null;
  flagged: boolean;
}

export interface RevenueView {
  from: string;
  to: string;
  group: RevenueGroup;
  /** Every period of the range, oldest first (the first and last may be cut by the range). */
  periods: string[];
  brands: string[];
  money: RevenueMoneyRow[];
  members: RevenueMembersRow[];
  disputes: RevenueDisputeRow[];
  /** With `eur=1`: the configured rates (EUR per unit of each currency); else null. */
  eur_rates: Record<string, number> | null;
}

/** One attempt of a postback as GET /api/console/postbacks answers it (credentials in the URL hidden). */
export interface PostbackAttemptView {
  id: number;
  postback_id: number;
  brand: string;
  event: string;
  network: string;
  member_id: number | null;
  url: string;
  /** The network's HTTP answer; null when none came (timeout, refused connection: see `error`). */
  status_code: number | null;
  error: string | null;
  at: string;
  duration_ms: number;
  /** Sent again by staff. */
  resend: boolean;
  /** Where the postback stands now: pending, sending, sent or failed. */
  status: string;
}

export interface PostbacksView {
  attempts: PostbackAttemptView[];
  /** The attempt id to ask for the next page with `before=` (null at the end). */
  before: number | null;
  /** Each brand's postbacks as configured in tenant.json. */
  config: { brand: string; postbacks: { network: string; url: string; events: string[] }[] }[];
}
