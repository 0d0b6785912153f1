import { useState, type FormEvent } from 'react';
import { m } from '../../paraglide/messages.js';
import type { Locale } from '../../lib/locales.ts';
import { ABOUT_MAX } from '../../lib/account-rules.ts';
import { ApiError } from '../../stores/api.ts';
import {
  profileChanges,
  saveProfile,
  type Interest,
  type Profile,
  type ProfileChanges,
  type ProfileChoiceField,
  type ProfileOptions,
} from '../../stores/profile.ts';
import { Field } from './Field.tsx';
import { Notice } from './Notice.tsx';
import DateOfBirthPicker from '../DateOfBirthPicker.tsx';
import { InterestToggles } from './InterestToggles.tsx';

/** The list fields of this form, in the order SPEC §3 names them. */
const CHOICE_FIELDS: ProfileChoiceField[] = ['gender', 'sexuality', 'hair_color', 'eye_color', 'body_type', 'relationship_status', 'tattoos', 'reason'];

type Values = { name: string; birth_date: string; about: string; interests: string[] } & Record<ProfileChoiceField, string>;

function valuesOf(profile: Profile): Values {
  const values = {
    name: profile.name ?? '',
    birth_date: profile.birth_date ?? '',
    about: profile.about ?? '',
    interests: [...profile.interests],
  } as Values;
  for (const field of CHOICE_FIELDS) values[field] = profile[field] ?? '';
  return values;
}

interface Props {
  locale: Locale;
  profile: Profile;
  options: ProfileOptions;
  interests: Interest[];
  /** The tenant's visible_profile_fields; the name always shows. */
  visible: readonly string[];
}

/** The descriptive profile fields of SPEC §3 (location has its own section); saves only what changed. */
export function ProfileForm({ locale, profile, options, interests, visible }: Props) {
  const o = { locale };
  const [values, setValues] = useState<Values>(() => valuesOf(profile));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [status, setStatus] = useState<{ tone: 'error' | 'success' | 'info'; text: string } | null>(null);
  const [saving, setSaving] = useState(false);
  const shows = (field: string) => visible.includes(field);

  const labels: Record<ProfileChoiceField, string> = {
    gender: m.field_gender({}, o),
    sexuality: m.field_sexuality({}, o),
    hair_color: m.field_hair_color({}, o),
    eye_color: m.field_eye_color({}, o),
    body_type: m.field_body_type({}, o),
    relationship_status: m.field_relationship_status({}, o),
    tattoos: m.field_tattoos({}, o),
    reason: m.field_reason({}, o),
  };

  function set<K extends keyof Values>(field: K, value: Values[K]) {
    setValues((v) => ({ ...v, [field]: value }));
    if (errors[field]) setErrors(({ [field]: _, ...rest }) => rest);
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    const edited: ProfileChanges = { name: values.name };
    if (shows('birth_date')) edited.birth_date = values.birth_date;
    if (shows('about')) edited.about = values.about;
    if (shows('interests')) edited.interests = values.interests;
    for (const field of CHOICE_FIELDS) if (shows(field)) edited[field] = values[field];
    const changes = profileChanges(profile, edited);
    setErrors({});
    if (Object.keys(changes).length === 0) {
      setStatus({ tone: 'info', text: m.profile_unchanged({}, o) });
      return;
    }
    setSaving(true);
    setStatus(null);
    try {
      const saved = await saveProfile(changes);
      setValues(valuesOf(saved));
      setStatus({ tone: 'success', text: m.profile_saved({}, o) });
    } catch (error) {
      const message = error instanceof ApiError && error.code !== 'network' ? error.message : m.error_generic({}, o);
      const field = error instanceof ApiError ? error.field : undefined;
      if (field && field in values && field !== 'interests') {
        setErrors({ [field]: message });
        document.getElementById(field === 'birth_date' ? 'profile-birth_date-day' : `profile-${field}`)?.focus();
      } else {
        setStatus({ tone: 'error', text: message });
      }
    } finally {
      setSaving(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-5">
      <div className="grid gap-4 md:grid-cols-2">
        <Field id="profile-name" label={m.field_name({}, o)} error={errors.name}>
          {(p) => <input {...p} type="text" autoComplete="nickname" maxLength={100} value={values.name} onChange={(e) => set('name', e.currentTarget.value)} />}
        </Field>
        {shows('birth_date') && (
          <DateOfBirthPicker
            id="profile-birth_date"
            locale={locale}
            legend={m.field_birth_date({}, o)}
            value={values.birth_date}
            error={errors.birth_date}
            onChange={(v) => set('birth_date', v)}
          />
        )}
        {CHOICE_FIELDS.filter((f) => shows(f) && options.fields[f]?.length).map((field) => (
          <Field key={field} id={`profile-${field}`} label={labels[field]} error={errors[field]}>
            {(p) => (
              <select {...p} value={values[field]} onChange={(e) => set(field, e.currentTarget.value)}>
                {/* Gender and sexuality cannot be emptied once chosen; the other fields can. */}
                {(values[field] === '' || (field !== 'gender' && field !== 'sexuality')) && <option value="">{m.profile_choose({}, o)}</option>}
                {options.fields[field]!.map((option) => (
                  <option key={option.key} value={option.key}>{option.label}</option>
                ))}
              </select>
            )}
          </Field>
        ))}
      </div>

      {shows('about') && (
        <Field
          id="profile-about"
          label={m.field_about({}, o)}
          error={errors.about}
          aside={
            <span className={`text-xs ${values.about.length > ABOUT_MAX ? 'font-semibold text-danger' : 'text-gray-600'}`}>
              {m.profile_about_counter({ count: values.about.length, max: ABOUT_MAX }, o)}
            </span>
          }
        >
          {(p) => (
            <textarea
              {...p}
              rows={6}
              maxLength={ABOUT_MAX}
              placeholder={m.profile_about_placeholder({}, o)}
              value={values.about}
              onChange={(e) => set('about', e.currentTarget.value)}
            />
          )}
        </Field>
      )}

      {shows('interests') && interests.length > 0 && (
        <div>
          <h3 id="profile-interests-title" className="text-sm font-semibold text-gray-800">{m.field_interests({}, o)}</h3>
          <p className="mb-2 text-xs text-gray-600">{m.profile_interests_hint({}, o)}</p>
          <InterestToggles interests={interests} selected={values.interests} labelledBy="profile-interests-title" onChange={(v) => set('interests', v)} />
        </div>
      )}

      <Notice tone={status?.tone ?? 'success'}>{status?.text}</Notice>
      <div className="flex justify-end">
        <button type="submit" className="btn-primary w-full sm:w-auto" disabled={saving}>
          {saving ? m.profile_saving({}, o) : m.profile_save({}, o)}
        </button>
      </div>
    </form>
  );
}
