import { atom, map } from './browser-only.ts';
import type { ProfileCardData } from '../contract/cards.ts';
import type { BodyOf } from '../contract/endpoints.ts';
import { api } from './api.ts';
import { $user, changeUser } from './user.ts';
import type { SiteUser } from '../contract/user.ts';

/**
 * The signup flow (SPEC §2, §4): steps 0 to 4, then the complete step and the e-mail activation
 * step. The form and the step live here so the modal and the blocks behind it agree on them.
 */
export type SignupStep = 0 | 1 | 2 | 3 | 4 | 'complete' | 'activate';
export const SIGNUP_STEPS = 5;

export { GENDERS, SEXUALITIES, type Gender, type Sexuality } from '../contract/enums.ts';
import type { Gender, Sexuality } from '../contract/enums.ts';
import type { Tracking } from '../lib/tracking.ts';

/** SPEC §3 "Signup form" plus the profile fields signup asks for. */
export interface SignupForm {
  gender: Gender | '';
  sexuality: Sexuality | '';
  date_of_birth: string;
  country: string;
  region: string;
  city: string;
  email: string;
  password: string;
  name: string;
  signup_message: string;
  consent: boolean;
}

const EMPTY_FORM: SignupForm = {
  gender: '',
  sexuality: '',
  date_of_birth: '',
  country: '',
  region: '',
  city: '',
  email: '',
  password: '',
  name: '',
  signup_message: '',
  consent: false,
};

/** The part of GET /api/settings.php that signup reads (SPEC §3 "Settings from the server"). */
export interface SignupSettings {
  name: string;
  countries: string[];
  geoip_selected_country: string;
  signups: 'all' | 'with_trafficsource' | 'other';
  signup_credits: number;
  support_email: string;
}

export const $signupForm = map<SignupForm>({ ...EMPTY_FORM });
export const $signupStep = atom<SignupStep>(0);
export const $signupSettings = atom<SignupSettings | null>(null);

// ---- Tracking parameters (SPEC §3 "Tracking parameters stored"): src/lib/tracking.ts ----

export { TRACKING_PARAMS, captureTracking, type Tracking } from '../lib/tracking.ts';

/** SPEC §5: signups are open for `all`, or for `with_trafficsource` when a traffic source is present. */
export function signupsOpen(signups: SignupSettings['signups'], tracking: Tracking): boolean {
  return signups === 'all' || (signups === 'with_trafficsource' && Object.keys(tracking).length > 0);
}

// ---- Actions ----

export async function loadSignupSettings(): Promise<SignupSettings> {
  const cached = $signupSettings.get();
  if (cached) return cached;
  const { settings } = await api('GET', '/settings.php', undefined, { domain: location.hostname });
  $signupSettings.set(settings);
  // The visitor's country is the first guess for the location step.
  if (!$signupForm.get().country) $signupForm.setKey('country', settings.geoip_selected_country);
  return settings;
}

export function updateSignup(patch: Partial<SignupForm>): void {
  $signupForm.set({ ...$signupForm.get(), ...patch });
}

export function goToSignupStep(step: SignupStep): void {
  $signupStep.set(step);
}

/** Whether the visitor has begun: then the modal may not be closed by backdrop or Escape (SPEC §2). */
export function signupInProgress(step: SignupStep, form: SignupForm): boolean {
  return step !== 0 || form.gender !== '' || form.sexuality !== '';
}

/**
 * Creates the account (POST /api/signup.php): 201 with the user, logged in, status not_confirmed;
 * the server sends the activation mail.
 */
export async function submitSignup(tracking: Tracking): Promise<SiteUser> {
  const f = $signupForm.get();
  const { user } = await changeUser(() =>
    api('POST', '/signup.php', {
      email: f.email.trim(),
      password: f.password,
      name: f.name.trim(),
      date_of_birth: f.date_of_birth,
      // The form refuses to submit without them (signupStepErrors).
      gender: f.gender as BodyOf<'POST signup.php'>['gender'],
      sexuality: f.sexuality as BodyOf<'POST signup.php'>['sexuality'],
      country: f.country,
      ...(f.region ? { region: f.region } : {}),
      ...(f.city.trim() ? { city: f.city.trim() } : {}),
      ...(f.signup_message.trim() ? { signup_message: f.signup_message.trim() } : {}),
      ...(Object.keys(tracking).length > 0 ? { tracking } : {}),
    }),
  );
  $user.set(user);
  $signupStep.set('complete');
  return user;
}

// ---- After signup: suggested members, and the member a member-id signup is about ----

/** A member as the signup pages show one (GET /api/signup-matches.php, GET /api/member.php): the contract's card. */
export type MemberCard = ProfileCardData;

export const $signupMatches = atom<MemberCard[] | null>(null);

export async function loadSignupMatches(): Promise<MemberCard[]> {
  const { profiles } = await api('GET', '/signup-matches.php');
  $signupMatches.set(profiles);
  return profiles;
}

/** The member of /members/{id}/signup, or null when the API does not show it to a visitor. */
export const $signupMember = atom<MemberCard | null>(null);

export async function loadSignupMember(id: string): Promise<MemberCard | null> {
  try {
    const answer = await api('GET', '/member.php', undefined, { id });
    const member = answer.profile;
    $signupMember.set(member);
    return member;
  } catch {
    // Profiles may be for members only (401) or gone (404): the block is then the generic one.
    $signupMember.set(null);
    return null;
  }
}

/** The picture of a member card: the thumbnail when there is one. */
export function memberImage(card: MemberCard): string | null {
  const image = card.main_image;
  if (!image) return null;
  if (typeof image === 'string') return image;
  return image.thumb_filename || image.filename || null;
}
