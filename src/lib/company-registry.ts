/**
 * The business register a company's number is in, named for the company's country (SPEC §3
 * company info: "kvk" is the number; the Dutch Chamber of Commerce only for a Dutch company).
 * Each register has a catalogue message `registry_<country>` with the number as {number}; a
 * country without one of its own gets the neutral `registry_other`.
 */
export const COMPANY_REGISTRIES = {
  NL: 'registry_nl', // Kamer van Koophandel (KvK)
  BE: 'registry_be', // Kruispuntbank van Ondernemingen / Banque-Carrefour des Entreprises (KBO/BCE)
  DE: 'registry_de', // Handelsregister (HRB)
  AT: 'registry_at', // Firmenbuch (FN)
  CH: 'registry_ch', // Handelsregister / registre du commerce (UID)
  GB: 'registry_gb', // Companies House
  IE: 'registry_ie', // Companies Registration Office (CRO)
  FR: 'registry_fr', // Registre du commerce et des sociétés (RCS/SIREN)
} as const;

export type RegistryKey = (typeof COMPANY_REGISTRIES)[keyof typeof COMPANY_REGISTRIES] | 'registry_other';

/** The catalogue key naming the register of a company in `countryCode` (ISO 3166-1), or the neutral one. */
export function registryKey(countryCode: string | null | undefined): RegistryKey {
  const code = (countryCode ?? '').toUpperCase();
  return Object.hasOwn(COMPANY_REGISTRIES, code) ? COMPANY_REGISTRIES[code as keyof typeof COMPANY_REGISTRIES] : 'registry_other';
}
