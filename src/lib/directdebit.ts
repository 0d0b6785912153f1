/**
 * Direct debit as the member meets it (SPEC §5, §8): the limits chosen for it, and the shapes the
 * form sends and receives. Zod-free, for the browser; src/contract/directdebit.ts validates.
 */

/** The most a member can be debited in a window (chosen: EUR 150 in 30 days, SEPA is euros). */
export const DIRECT_DEBIT_LIMIT = { amount: 15_000, currency: 'EUR', days: 30 } as const;
/** The SMS code: 6 digits, valid 10 minutes, 5 tries; at most 5 codes sent an hour (chosen). */
export const DIRECT_DEBIT_CODE = { digits: 6, minutes: 10, tries: 5, sendsPerHour: 5 } as const;

/** What the member enters (SPEC §5 direct debit fields). */
export interface DirectDebitDetails {
  holder: string;
  iban: string;
  street: string;
  house_number: string;
  postcode: string;
  city: string;
  mobile: string;
}

/** POST /api/directdebit.php: the order waits for its SMS code. */
export interface DirectDebitAnswer {
  order: {
    id: number;
    /** The number the code went to, all but the last 4 digits hidden. */
    mobile: string;
    /** Cents of `currency` to be debited. */
    amount: number;
    list_amount: number;
    currency: string;
    expires_at: string;
    tries_left: number;
  };
}

/** +31612345678 → +31•••••5678 */
export function maskMobile(e164: string): string {
  return `${e164.slice(0, 3)}${'•'.repeat(Math.max(0, e164.length - 7))}${e164.slice(-4)}`;
}
