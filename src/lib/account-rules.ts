/**
 * Rules for what a member types at signup and on the profile (SPEC §5), shared by the islands
 * (instant feedback) and the services (the decision). Each returns the catalogue key of the
 * message to show, or null when the value is fine.
 */

/** Minimum age (SPEC §5 leaves the value "not shown"; adults only means 18). */
export const MIN_AGE = 18;
/** Oldest birth date accepted, in years before today. */
export const MAX_AGE = 100;
export const NAME_MIN = 2;
export const NAME_MAX = 30;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 200;
export const ABOUT_MAX = 2000;

/** A plain address: printable local part without quotes, brackets or separators; a dotted domain. */
const EMAIL = /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.[A-Za-z]{2,63}$/;

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function isValidEmail(email: string): boolean {
  return email.length <= 254 && EMAIL.test(email.trim());
}

export type NameProblem = 'name_no_at' | 'name_not_email' | 'name_length';

/** SPEC §5: the profile name must differ from the e-mail and must not start with @. */
export function nameProblem(name: string, email: string | null | undefined): NameProblem | null {
  const trimmed = name.trim();
  if (trimmed.startsWith('@')) return 'name_no_at';
  if (email && trimmed.toLowerCase() === email.trim().toLowerCase()) return 'name_not_email';
  if (isValidEmail(trimmed)) return 'name_not_email';
  if ([...trimmed].length < NAME_MIN || [...trimmed].length > NAME_MAX) return 'name_length';
  return null;
}

export type BirthDateProblem = 'birth_date_required' | 'birth_date_invalid';

/** `YYYY-MM-DD` of `today` minus `years` years, spelled out (02-29 stays 02-29) so it compares like ageOn(). */
export function yearsBefore(today: Date, years: number): string {
  const y = String(today.getUTCFullYear() - years).padStart(4, '0');
  const m = String(today.getUTCMonth() + 1).padStart(2, '0');
  const d = String(today.getUTCDate()).padStart(2, '0');
  return `${y}-${m}-${d}`;
}

/** The age in whole years on a day. */
export function ageOn(birthDate: string, today: Date): number {
  const [y, m, d] = birthDate.split('-').map(Number) as [number, number, number];
  let age = today.getUTCFullYear() - y;
  const month = today.getUTCMonth() + 1;
  if (month < m || (month === m && today.getUTCDate() < d)) age -= 1;
  return age;
}

/**
 * SPEC §5: "Vul uw geboortedatum in ({min_age}+ jaar)" when missing or too young;
 * "Ongeldige geboortedatum." when it is no real date, in the future or more than 100 years ago.
 */
export function birthDateProblem(value: string | null | undefined, today = new Date()): BirthDateProblem | null {
  if (!value) return 'birth_date_required';
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return 'birth_date_invalid';
  const date = new Date(`${value}T00:00:00Z`);
  if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value) return 'birth_date_invalid';
  if (date.getTime() > today.getTime()) return 'birth_date_invalid';
  const age = ageOn(value, today);
  if (age > MAX_AGE) return 'birth_date_invalid';
  if (age < MIN_AGE) return 'birth_date_required';
  return null;
}
