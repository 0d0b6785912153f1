/**
 * Per-step checks of the signup form, with the catalogue's messages (SPEC §5). The rules are the
 * shared ones of src/lib/account-rules.ts; the server checks everything again.
 */
import { m } from '../../paraglide/messages.js';
import type { Locale } from '../../lib/locales.ts';
import { MIN_AGE, PASSWORD_MIN, birthDateProblem, isValidEmail, nameProblem, type NameProblem } from '../../lib/account-rules.ts';
import type { RegionCountry } from '../../stores/profile.ts';
import type { SignupForm, SignupStep } from '../../stores/signup.ts';
import type { FieldErrors } from './form.tsx';

/** Named one by one (not m[problem]) so the bundle holds these three messages, not the catalogue. */
const NAME_PROBLEMS: Record<NameProblem, (inputs: {}, options: { locale: Locale }) => string> = {
  name_no_at: m.name_no_at,
  name_not_email: m.name_not_email,
  name_length: m.name_length,
};

/** The step that asks for each field the API may name in an error. */
export const FIELD_STEP: Record<string, 0 | 1 | 2 | 3 | 4> = {
  gender: 0,
  sexuality: 0,
  date_of_birth: 1,
  birth_date: 1,
  country: 2,
  region: 2,
  city: 2,
  email: 3,
  password: 3,
  name: 4,
  signup_message: 4,
  consent: 4,
};

export function validateSignupStep(step: SignupStep, form: SignupForm, locale: Locale, regions: RegionCountry[] | null): FieldErrors {
  const o = { locale };
  const errors: FieldErrors = {};
  switch (step) {
    case 0:
      if (!form.gender) errors.gender = m.signup_gender_required({}, o);
      if (!form.sexuality) errors.sexuality = m.signup_sexuality_required({}, o);
      break;
    case 1: {
      const problem = birthDateProblem(form.date_of_birth);
      if (problem === 'birth_date_required') errors.date_of_birth = m.birth_date_required({ min_age: MIN_AGE }, o);
      if (problem === 'birth_date_invalid') errors.date_of_birth = m.birth_date_invalid({}, o);
      break;
    }
    case 2: {
      const country = regions?.find((c) => c.code === form.country);
      if (!form.country) errors.country = m.signup_country_required({}, o);
      else if (country && country.regions.length > 0 && !form.region) errors.region = m.signup_region_required({ label: country.label }, o);
      break;
    }
    case 3:
      if (!isValidEmail(form.email)) errors.email = m.signup_email_invalid({}, o);
      if (form.password.length < PASSWORD_MIN) errors.password = m.password_too_short({}, o);
      break;
    case 4: {
      const problem = nameProblem(form.name, form.email);
      if (problem) errors.name = NAME_PROBLEMS[problem]({}, o);
      if (!form.consent) errors.consent = m.signup_consent_required({}, o);
      break;
    }
  }
  return errors;
}
