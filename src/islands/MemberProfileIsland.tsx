/**
 * A member's profile (SPEC §2 members-id and likes-m-id, the same screen): the photo header with
 * the main photo large, the others as thumbnails and locked ones behind a lock (SPEC §1, §6), name,
 * age, place, photo count, the fictional warning (DESIGN §10), the actions, about-me, the
 * descriptive fields the brand shows (visible_profile_fields), interests and related profiles.
 *
 * A server-rendered page passes the profile; the member shell (the same page for every profile)
 * passes none, and the island asks GET /api/member.php for the profile of its address.
 */
import { useEffect, useState } from 'react';
import { m } from '../paraglide/messages.js';
import { placeLine } from '../lib/place-names.ts';
import { profilePhoto } from '../lib/shown-photos.ts';
import type { Locale } from '../lib/locales.ts';
import { countryName } from '../lib/names.ts';
import { matchRoute, routeId } from '../lib/routes.ts';
import { brandedTitle } from '../lib/badges.ts';
import type { MemberAnswer } from '../contract/member.ts';
import { api, ApiError } from '../stores/api.ts';
import ProfileActions from './likes/ProfileActions.tsx';
import ProfileCard, { type Fictional } from './search/ProfileCard.tsx';
import { Glyph } from './Glyph.tsx';

/** The brand's visible fields with their labels in the page's language, named on the server or at build time. */
export interface ProfileLabels {
  /** Descriptive fields in the order of the profile form: label and the labels of their values. */
  facts: { field: string; label: string; options: Record<string, string> }[];
  /** Interests the brand shows, with icon and label (empty when interests are not visible). */
  interests: { key: string; icon: string; label: string }[];
  /** Which of city, region and about the brand shows. */
  city: boolean;
  region: boolean;
  about: boolean;
}

interface Props {
  locale: Locale;
  member: MemberAnswer | null;
  labels: ProfileLabels;
  fictional: Fictional;
  /** The brand's name, for the page title. */
  brand: string;
}

/** The {id} of /members/{id} or /likes/m/{id}. */
function idOfAddress(): number | null {
  return routeId(matchRoute(location.pathname)?.params.id);
}

/** The title keeps its base in data-base-title, which the live badges prefix with the counts. */
function titleFor(name: string, brand: string): void {
  const title = document.querySelector<HTMLTitleElement>('title[data-base-title]');
  if (!title) return;
  const next = brandedTitle(name, brand);
  document.title = document.title.replace(title.dataset.baseTitle ?? '', next);
  title.dataset.baseTitle = next;
}

export default function MemberProfileIsland({ locale, member: given, labels, fictional, brand }: Props) {
  const o = { locale };
  const [member, setMember] = useState<MemberAnswer | null>(given);
  const [failure, setFailure] = useState<string | null>(null);
  const [shown, setShown] = useState<string | null>(null);

  useEffect(() => {
    if (given) return;
    const id = idOfAddress();
    if (id === null) return setFailure(m.error_not_found_api({}, o));
    api('GET', '/member.php', undefined, { id }).then(
      (answer) => {
        setMember(answer);
        titleFor(answer.profile.name, brand);
      },
      // The server's own words for a refusal (404: not found); the catalogue's for anything else.
      (error: unknown) => setFailure(error instanceof ApiError && error.code !== 'network' ? error.message : m.error_generic({}, o)),
    );
  }, []);

  if (failure) return <p role="alert" className="card p-6 text-gray-800">{failure}</p>;
  if (!member) return <ProfileSkeleton />;

  const { profile, photos, related, relation } = member;
  const nameOf = (code: string) => countryName(code, locale);
  const mainUrl = shown ?? profilePhoto(member);
  const mainIndex = Math.max(0, photos.findIndex((p) => p.url === mainUrl));
  const locked = photos.filter((p) => p.locked).length;
  const photoCount = profile.photo_count ?? photos.length;
  const place = [placeLine({ country: profile.country, city: labels.city ? profile.city : null, region: labels.region ? profile.region : null }, locale), nameOf(profile.country)].filter(Boolean).join(', ');
  const details = profile.photo_count !== undefined;
  const facts = details
    ? labels.facts.flatMap((f) => {
        const value = (profile as unknown as Record<string, unknown>)[f.field];
        return typeof value === 'string' && f.options[value] ? [{ label: f.label, value: f.options[value] }] : [];
      })
    : [];
  const interests = details ? labels.interests.filter((i) => profile.interests?.includes(i.key)) : [];
  const about = details && labels.about ? profile.about : null;
  const thumb = 'relative block aspect-square overflow-hidden rounded-lg focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-primary';

  return (
    <article aria-labelledby="member-name" className="space-y-6" data-member-profile={profile.id}>
      <section className="card overflow-hidden md:grid md:grid-cols-[minmax(0,5fr)_minmax(0,7fr)]">
        <div className="p-3 md:p-4">
          <figure className="relative aspect-square overflow-hidden sm:aspect-[4/5] rounded-xl bg-gradient-to-br from-primary/25 to-secondary/30">
            {mainUrl ? (
              <img src={mainUrl} alt={m.member_photo({ number: mainIndex + 1, name: profile.name }, o)} className="h-full w-full object-cover" data-gallery-main />
            ) : (
              <span className="grid h-full w-full place-items-center text-8xl font-black text-white/90" aria-hidden="true">{profile.name.charAt(0).toUpperCase()}</span>
            )}
            {profile.fictional && (
              <span role="img" aria-label={fictional.warning} title={fictional.warning} className="absolute right-3 top-3 grid h-10 w-10 place-items-center rounded-full bg-white/90 text-xl shadow"><Glyph icon={fictional.icon} /></span>
            )}
          </figure>
          {photos.length > 1 && (
            <ul className="mt-3 grid grid-cols-4 gap-2 sm:grid-cols-5 md:grid-cols-4 lg:grid-cols-5" aria-label={m.member_photos_list({ name: profile.name }, o)}>
              {photos.map((photo, i) => (
                <li key={photo.id}>
                  {photo.locked || !photo.url ? (
                    <a href="/premium" className={`${thumb} bg-gradient-to-br from-primary/60 to-secondary/70 text-white no-underline`} aria-label={`${m.member_photo_locked({}, o)} ${m.member_photos_premium({}, o)}`}>
                      <span className="absolute inset-0 grid place-items-center" aria-hidden="true">
                        <svg width="22" height="22" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round"><rect x="5" y="11" width="14" height="10" rx="2" /><path d="M8 11V8a4 4 0 0 1 8 0v3" /></svg>
                      </span>
                    </a>
                  ) : (
                    <a
                      href={photo.url}
                      className={`${thumb} bg-gray-100 aria-[current=true]:ring-3 aria-[current=true]:ring-primary`}
                      data-gallery-thumb
                      aria-current={photo.url === mainUrl ? 'true' : undefined}
                      onClick={(event) => {
                        // A thumbnail shows its photo in the large frame; a modified click opens the photo.
                        if (event.metaKey || event.ctrlKey || event.shiftKey) return;
                        event.preventDefault();
                        setShown(photo.url);
                      }}
                    >
                      <img src={photo.thumb_url ?? photo.url} alt={m.member_photo({ number: i + 1, name: profile.name }, o)} loading="lazy" className="h-full w-full object-cover" />
                    </a>
                  )}
                </li>
              ))}
            </ul>
          )}
          {locked > 0 && (
            <p className="mt-3">
              <a href="/premium" className="flex items-center gap-2 rounded-xl bg-primary/10 px-3 py-2.5 text-sm font-semibold text-primary no-underline hover:bg-primary/15">
                <span aria-hidden="true" className="i-tabler-lock" />{m.member_photos_premium({}, o)}
              </a>
            </p>
          )}
        </div>

        <div className="flex flex-col gap-4 p-5 md:p-7">
          <div>
            <h1 id="member-name" className="text-3xl font-extrabold leading-tight md:text-4xl">
              {profile.name}{profile.age != null && <span className="font-semibold text-gray-600">, {m.lander_age({ age: profile.age }, o)}</span>}
            </h1>
            <ul className="mt-2 flex flex-wrap gap-x-5 gap-y-1 text-gray-700">
              {place && (
                <li className="flex items-center gap-1.5">
                  <svg aria-hidden="true" width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" className="text-primary"><path d="M12 21s-7-6.2-7-11.5a7 7 0 0 1 14 0C19 14.8 12 21 12 21z" /><circle cx="12" cy="9.5" r="2.5" /></svg>
                  {place}
                </li>
              )}
              {photoCount > 0 && (
                <li className="flex items-center gap-1.5">
                  <svg aria-hidden="true" width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" className="text-primary"><rect x="3" y="6" width="18" height="14" rx="2" /><circle cx="12" cy="13" r="3.5" /><path d="M8 6l1.5-2h5L16 6" /></svg>
                  {photoCount === 1 ? m.member_photo_count_one({}, o) : m.member_photo_count({ count: photoCount }, o)}
                </li>
              )}
            </ul>
          </div>

          {relation && (
            <ProfileActions
              locale={locale}
              relation={relation}
              profile={{ id: profile.id, name: profile.name, age: profile.age, city: profile.city, region: profile.region, country: profile.country, fictional: profile.fictional, main_image: profile.main_image }}
            />
          )}

          {profile.fictional && (
            <p role="note" className="flex items-start gap-2 rounded-xl border border-warning/50 bg-warning/15 px-4 py-3 text-sm text-[#5c4700]">
              <Glyph icon={fictional.icon} className="text-lg leading-none" />
              <span>{fictional.warning}</span>
            </p>
          )}

          {about && (
            <section aria-labelledby="member-about" className="border-t border-gray-100 pt-4">
              <h2 id="member-about" className="mb-1.5 text-lg font-bold">{m.field_about({}, o)}</h2>
              <p className="whitespace-pre-line break-words text-gray-800">{about}</p>
            </section>
          )}

          {facts.length > 0 && (
            <section aria-labelledby="member-details" className="border-t border-gray-100 pt-4">
              <h2 id="member-details" className="mb-3 text-lg font-bold">{m.member_details({}, o)}</h2>
              <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-6 gap-y-2 sm:grid-cols-[auto_minmax(0,1fr)_auto_minmax(0,1fr)] md:grid-cols-[auto_minmax(0,1fr)] lg:grid-cols-[auto_minmax(0,1fr)_auto_minmax(0,1fr)]">
                {facts.map((f) => [
                  <dt key={`${f.label}-t`} className="text-gray-600">{f.label}</dt>,
                  <dd key={`${f.label}-d`} className="font-semibold text-gray-900">{f.value}</dd>,
                ])}
              </dl>
            </section>
          )}

          {interests.length > 0 && (
            <section aria-labelledby="member-interests" className="border-t border-gray-100 pt-4">
              <h2 id="member-interests" className="mb-3 text-lg font-bold">{m.field_interests({}, o)}</h2>
              <ul className="flex flex-wrap gap-2">
                {interests.map((i) => (
                  <li key={i.key} className="flex items-center gap-1.5 rounded-full border border-primary/25 bg-primary/8 px-3 py-1.5 text-sm font-medium text-gray-900">
                    <Glyph icon={i.icon} className="text-lg text-primary" />{i.label}
                  </li>
                ))}
              </ul>
            </section>
          )}
        </div>
      </section>

      {related.length > 0 && (
        <section aria-labelledby="member-related">
          <h2 id="member-related" className="mb-4 text-xl font-bold">{m.member_related({}, o)}</h2>
          <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 md:gap-4 lg:grid-cols-6">
            {related.map((r) => (
              <li key={r.id}><ProfileCard locale={locale} member={r} fictional={fictional} countryName={nameOf} /></li>
            ))}
          </ul>
        </section>
      )}
    </article>
  );
}

/** The profile's frame while it loads: the photo and the lines of text as grey shapes. */
function ProfileSkeleton() {
  return (
    <div className="card animate-pulse overflow-hidden md:grid md:grid-cols-[minmax(0,5fr)_minmax(0,7fr)]" aria-busy="true">
      <div className="p-3 md:p-4"><div className="aspect-square rounded-xl bg-gray-200 sm:aspect-[4/5]" /></div>
      <div className="space-y-4 p-5 md:p-7">
        <div className="h-9 w-2/3 rounded-lg bg-gray-200" />
        <div className="h-5 w-1/2 rounded bg-gray-200" />
        <div className="h-11 w-full rounded-xl bg-gray-100" />
        <div className="h-24 w-full rounded-xl bg-gray-100" />
      </div>
    </div>
  );
}
