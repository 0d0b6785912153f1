import { useEffect, useState } from 'react';
import { useStore } from '@nanostores/react';
import { m } from '../paraglide/messages.js';
import type { Locale } from '../lib/locales.ts';
import type { SiteUser } from '../contract/user.ts';
import { $interests, $profile, $profileOptions, $regions, loadProfileForm } from '../stores/profile.ts';
import { ProfileForm } from './profile/ProfileForm.tsx';
import { LocationForm } from './profile/LocationForm.tsx';
import { AccountSettings } from './profile/AccountSettings.tsx';
import { Notice } from './profile/Notice.tsx';
import { useSeedUser } from './profile/useSeedUser.ts';

interface Props {
  locale: Locale;
  user: SiteUser | null;
  /** The locales the visitor may switch to. */
  locales: Locale[];
  /** The tenant's visible_profile_fields. */
  visibleFields: string[];
  /** The brand's name, and the names of the other brands of its pool (issue 24; empty when alone). */
  brand: string;
  poolBrands: string[];
}

const SECTION = 'card scroll-mt-20 p-5 md:p-7';
const HEADING = 'mb-4 text-xl font-bold md:text-2xl';

/** /profile#profile, #location and #account: the profile form, location settings and account settings. */
export default function ProfileIsland({ locale, user: initialUser, locales, visibleFields, brand, poolBrands }: Props) {
  const o = { locale };
  const user = useSeedUser(initialUser);
  const profile = useStore($profile);
  const options = useStore($profileOptions);
  const interests = useStore($interests);
  const regions = useStore($regions);
  const [failed, setFailed] = useState(false);

  function load() {
    setFailed(false);
    loadProfileForm().catch(() => setFailed(true));
  }
  useEffect(load, []);

  useEffect(() => {
    // Jumping to #location or #account from a link: the sections exist only once loaded.
    if (profile && location.hash) document.getElementById(location.hash.slice(1))?.scrollIntoView();
  }, [profile !== null]);

  const ready = profile && options && interests && regions;
  const showRegion = visibleFields.includes('region');
  const showCity = visibleFields.includes('city');

  const placeholder = failed ? (
    <Notice tone="error">
      {m.profile_load_failed({}, o)}{' '}
      <button type="button" className="font-semibold text-primary underline" onClick={load}>{m.profile_retry({}, o)}</button>
    </Notice>
  ) : (
    // The form is taller than a screen: its room is kept while it loads, so what follows stays put.
    <p className="min-h-[100vh] text-gray-600" role="status">{m.form_loading({}, o)}</p>
  );

  return (
    <>
      <section id="profile" aria-labelledby="profile-title" className={SECTION}>
        <h2 id="profile-title" className={HEADING}>{m.profile_section_profile({}, o)}</h2>
        {ready ? <ProfileForm locale={locale} profile={profile} options={options} interests={interests} visible={visibleFields} /> : placeholder}
      </section>
      {/* The server ties the country to the region field: without it there is no location to set. */}
      {showRegion && (
        <section id="location" aria-labelledby="location-title" className={SECTION}>
          <h2 id="location-title" className={HEADING}>{m.profile_section_location({}, o)}</h2>
          {ready ? <LocationForm locale={locale} profile={profile} countries={regions} showCity={showCity} /> : placeholder}
        </section>
      )}
      {user && (
        <section id="account" aria-labelledby="account-title" className={SECTION}>
          <h2 id="account-title" className={HEADING}>{m.profile_section_account({}, o)}</h2>
          <AccountSettings locale={locale} user={user} locales={locales} brand={brand} poolBrands={poolBrands} />
        </section>
      )}
    </>
  );
}
