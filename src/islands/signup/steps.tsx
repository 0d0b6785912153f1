/** The five form steps of signup (SPEC §2): who you are, birth date, location, login details, profile. */
import type { ReactNode } from 'react';
import { m } from '../../paraglide/messages.js';
import type { Locale } from '../../lib/locales.ts';
import { MIN_AGE, PASSWORD_MIN, NAME_MAX } from '../../lib/account-rules.ts';
import { GENDERS, SEXUALITIES, type Gender, type Sexuality, type SignupForm } from '../../stores/signup.ts';
import DateOfBirthPicker from '../DateOfBirthPicker.tsx';
import RegionPicker from '../RegionPicker.tsx';
import { TextField, EmailField, PasswordField, FieldError, describedBy, inputClass, labelClass, withLinks } from './form.tsx';
import type { FieldErrors } from './form.tsx';

export interface StepProps {
  locale: Locale;
  form: SignupForm;
  errors: FieldErrors;
  update: (patch: Partial<SignupForm>) => void;
}

// ---- Step 0: gender and sexuality as big toggle buttons ----

/** The sexualities offered for a gender: same-sex is "gay" for men and "lesbian" for women. */
function sexualitiesFor(gender: Gender | ''): readonly Sexuality[] {
  if (gender === 'male') return ['hetero', 'gay', 'bi'];
  if (gender === 'female') return ['hetero', 'lesbian', 'bi'];
  return SEXUALITIES;
}

function ChoiceGroup<T extends string>({
  name,
  legend,
  options,
  value,
  onChange,
  error,
  columns,
}: {
  name: string;
  legend: string;
  options: { value: T; label: string; icon?: ReactNode }[];
  value: string;
  onChange: (value: T) => void;
  error?: string;
  columns: string;
}) {
  const aria = describedBy(name, error);
  return (
    <fieldset aria-describedby={aria['aria-describedby']}>
      <legend className="mb-2 block text-base font-semibold text-gray-800">{legend}</legend>
      <div className={`grid gap-3 ${columns}`}>
        {options.map((option) => {
          const checked = value === option.value;
          return (
            <label key={option.value} className="relative block cursor-pointer">
              <input
                type="radio"
                name={name}
                value={option.value}
                checked={checked}
                onChange={() => onChange(option.value)}
                className="peer absolute inset-0 m-0 h-full w-full cursor-pointer opacity-0"
              />
              <span
                className={`flex min-h-14 flex-col items-center justify-center gap-1 rounded-2xl border-2 px-3 py-3 text-center font-semibold transition-all peer-focus-visible:outline-3 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-primary ${
                  checked
                    ? 'border-primary bg-primary text-white shadow-md'
                    : error
                      ? 'border-danger/60 bg-white text-gray-800 hover:border-primary'
                      : 'border-gray-200 bg-white text-gray-800 hover:border-primary/60 hover:bg-primary/5'
                }`}
              >
                {option.icon}
                {option.label}
              </span>
            </label>
          );
        })}
      </div>
      <FieldError id={name} message={error} />
    </fieldset>
  );
}

export function GenderStep({ locale, form, errors, update }: StepProps) {
  const o = { locale };
  const genderLabel: Record<Gender, string> = { male: m.signup_gender_male({}, o), female: m.signup_gender_female({}, o) };
  const sexualityLabel: Record<Sexuality, string> = {
    hetero: m.signup_sexuality_hetero({}, o),
    gay: m.signup_sexuality_gay({}, o),
    lesbian: m.signup_sexuality_lesbian({}, o),
    bi: m.signup_sexuality_bi({}, o),
  };
  const sexualities = sexualitiesFor(form.gender);
  function chooseGender(gender: Gender) {
    // Same-sex keeps its meaning when the gender changes.
    const sexuality = form.sexuality === 'gay' || form.sexuality === 'lesbian' ? (gender === 'male' ? 'gay' : 'lesbian') : form.sexuality;
    update({ gender, sexuality });
  }
  return (
    <div className="space-y-6">
      <ChoiceGroup
        name="gender"
        legend={m.signup_gender_legend({}, o)}
        options={GENDERS.map((g) => ({
          value: g,
          label: genderLabel[g],
          icon: (
            <span aria-hidden="true" className="text-3xl leading-none">
              {g === 'male' ? '♂' : '♀'}
            </span>
          ),
        }))}
        value={form.gender}
        onChange={chooseGender}
        error={errors.gender}
        columns="grid-cols-2"
      />
      <ChoiceGroup
        name="sexuality"
        legend={m.signup_sexuality_legend({}, o)}
        options={sexualities.map((s) => ({ value: s, label: sexualityLabel[s] }))}
        value={form.sexuality}
        onChange={(sexuality) => update({ sexuality })}
        error={errors.sexuality}
        columns={sexualities.length === 3 ? 'grid-cols-3' : 'grid-cols-2 sm:grid-cols-4'}
      />
    </div>
  );
}

// ---- Step 1: birth date ----

export function BirthDateStep({ locale, form, errors, update }: StepProps) {
  return (
    <DateOfBirthPicker
      locale={locale}
      id="date_of_birth"
      value={form.date_of_birth}
      onChange={(date_of_birth) => update({ date_of_birth })}
      error={errors.date_of_birth}
      hint={m.signup_birth_date_hint({ min_age: MIN_AGE }, { locale })}
    />
  );
}

// ---- Step 2: location ----

export function LocationStep({ locale, form, errors, update }: StepProps) {
  return (
    <RegionPicker
      locale={locale}
      id="location"
      value={{ country: form.country, region: form.region, city: form.city }}
      onChange={(place) => update(place)}
      errors={{ country: errors.country, region: errors.region, city: errors.city }}
      foundText={(place) => m.signup_location_filled({ place }, { locale })}
    />
  );
}

// ---- Step 3: e-mail and password ----

export function AccountStep({ locale, form, errors, update }: StepProps) {
  const o = { locale };
  return (
    <div className="space-y-5">
      <EmailField
        id="email"
        label={m.login_email({}, o)}
        autoComplete="email"
        value={form.email}
        onChange={(email) => update({ email })}
        error={errors.email}
        hint={m.signup_email_hint({}, o)}
      />
      <PasswordField
        id="password"
        locale={locale}
        label={m.login_password({}, o)}
        autoComplete="new-password"
        maxLength={200}
        value={form.password}
        onChange={(password) => update({ password })}
        error={errors.password}
        hint={m.signup_password_hint({ min: PASSWORD_MIN }, o)}
      />
    </div>
  );
}

// ---- Step 4: profile name, a first line, consent ----

export function ProfileStep({ locale, form, errors, update }: StepProps) {
  const o = { locale };
  const consentAria = describedBy('consent', errors.consent);
  return (
    <div className="space-y-5">
      <TextField
        id="name"
        label={m.profile_name({}, o)}
        autoComplete="nickname"
        maxLength={NAME_MAX}
        value={form.name}
        onChange={(name) => update({ name })}
        error={errors.name}
        hint={m.signup_name_hint({}, o)}
      />
      <div>
        <label htmlFor="signup_message" className={labelClass}>
          {m.signup_message({}, o)}
          <span className="ml-1 font-normal text-gray-500">({m.form_optional({}, o)})</span>
        </label>
        <textarea
          id="signup_message"
          className={`${inputClass} min-h-20 resize-y`}
          rows={2}
          maxLength={250}
          placeholder={m.signup_message_placeholder({}, o)}
          value={form.signup_message}
          onChange={(e) => update({ signup_message: e.currentTarget.value })}
          {...describedBy('signup_message', errors.signup_message)}
        />
        <FieldError id="signup_message" message={errors.signup_message} />
      </div>
      <div>
        <div className="flex items-start gap-3">
          <input
            id="consent"
            type="checkbox"
            className="mt-0.5 h-5 w-5 shrink-0 cursor-pointer accent-[var(--c-primary)]"
            checked={form.consent}
            onChange={(e) => update({ consent: e.currentTarget.checked })}
            {...consentAria}
          />
          <label htmlFor="consent" className="text-sm text-gray-700">
            {withLinks((p) => m.signup_consent(p as { terms: string; privacy: string }, o), {
              terms: (
                <a href="/pages/terms" target="_blank" rel="noopener" className="font-semibold">
                  {m.signup_consent_terms({}, o)}
                </a>
              ),
              privacy: (
                <a href="/pages/privacy" target="_blank" rel="noopener" className="font-semibold">
                  {m.signup_consent_privacy({}, o)}
                </a>
              ),
            })}
          </label>
        </div>
        <FieldError id="consent" message={errors.consent} />
      </div>
    </div>
  );
}
