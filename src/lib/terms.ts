export const TERMS_VERSION_MINIMUM = '2023-12-01T12:00:00Z'; // SPEC §9

/** The terms version date: at least 2023-12-01T12:00:00Z, or the company-added date if later (SPEC §9). */
export function termsVersionDate(companyAdded: string | null | undefined): Date {
  const minimum = new Date(TERMS_VERSION_MINIMUM);
  if (!companyAdded) return minimum;
  const added = new Date(companyAdded);
  return Number.isNaN(added.getTime()) || added < minimum ? minimum : added;
}
