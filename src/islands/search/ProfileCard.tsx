/**
 * A member in a list (search results, similar and related profiles): photo or an initial tile,
 * name, age and place, and the fictional marker (SPEC §1), linking to the profile. The look is the
 * one of the signup matches; the profile page renders it on the server without hydrating it.
 */
import { m } from '../../paraglide/messages.js';
import { placeLine } from '../../lib/place-names.ts';
import { Glyph } from '../Glyph.tsx';
import type { Locale } from '../../lib/locales.ts';
import type { MemberCard } from '../../stores/search.ts';
import { cardPhoto } from '../../lib/shown-photos.ts';

export interface Fictional {
  /** settings.fictional_icon */
  icon: string;
  /** settings.fictional_warning, or the catalogue's */
  warning: string;
  /** settings.fictional_singular, or the catalogue's: the word on a card ("fictief profiel") */
  label: string;
}

/** Where a member lives as one line: city and region in the page's language, else the country's name. */
export function memberPlace(member: Pick<MemberCard, 'city' | 'region' | 'country'>, countryName: (code: string) => string, locale: Locale): string {
  return placeLine(member, locale) || (member.country ? countryName(member.country) : '');
}

interface Props {
  locale: Locale;
  member: MemberCard;
  fictional: Fictional;
  countryName: (code: string) => string;
  /** Heading level of the name inside its list (the card is a list item under a section heading). */
  headingLevel?: 2 | 3 | 4;
  /** Where the card leads (members-id by default; the likes open likes-m-id). */
  href?: string;
  /** A tag on the photo: a new like, a match. */
  tag?: { text: string; tone: 'new' | 'match' };
  /**
   * A card on the first screen: its photo loads at once and before the page's other images (the
   * page's largest paint), not when scrolled to.
   */
  eager?: boolean;
}

export default function ProfileCard({ locale, member, fictional, countryName, headingLevel = 3, href, tag, eager = false }: Props) {
  const image = cardPhoto(member);
  const place = memberPlace(member, countryName, locale);
  const Name = `h${headingLevel}` as const;
  return (
    <a
      href={href ?? `/members/${member.id}`}
      className="group card relative block h-full overflow-hidden text-inherit no-underline transition-shadow hover:shadow-lg focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-primary"
    >
      <div className="relative aspect-square overflow-hidden bg-gradient-to-br from-primary/25 to-secondary/30">
        {image ? (
          <img src={image} alt="" loading={eager ? 'eager' : 'lazy'} fetchPriority={eager ? 'high' : undefined} decoding="async" className="h-full w-full object-cover transition-transform duration-300 group-hover:scale-105" />
        ) : (
          <span aria-hidden="true" className="grid h-full w-full place-items-center text-5xl font-bold text-white/90">
            {member.name.slice(0, 1).toUpperCase()}
          </span>
        )}
        {(tag || member.fictional) && (
          <div className="absolute left-2 right-2 top-2 flex flex-col items-start gap-1">
            {tag && (
              <span className={`rounded-full px-2.5 py-1 text-xs font-bold shadow-sm ${tag.tone === 'new' ? 'bg-danger text-white' : 'bg-white text-primary'}`}>
                {tag.tone === 'match' && <span aria-hidden="true" className="i-tabler-hearts mr-1 align-[-2px]" />}
                {tag.text}
              </span>
            )}
            {/* Conspicuous, in words (DESIGN §10): an icon alone is too faint a disclosure. */}
            {member.fictional && (
              <span title={fictional.warning} className="inline-flex max-w-full items-center gap-1 rounded-full bg-warning px-2 py-0.5 text-[11px] font-bold text-gray-900 shadow-sm sm:text-xs" data-fictional>
                <Glyph icon={fictional.icon} className="shrink-0" />
                <span className="truncate">{fictional.label.charAt(0).toLocaleUpperCase(locale) + fictional.label.slice(1)}</span>
                <span className="sr-only">: {fictional.warning}</span>
              </span>
            )}
          </div>
        )}
        <div className="absolute inset-x-0 bottom-0 bg-gradient-to-t from-black/75 to-transparent px-2.5 pb-2.5 pt-10 text-white sm:px-3">
          {/* A long name gives way; the age always shows. */}
          <Name className="flex min-w-0 text-sm font-bold leading-tight sm:text-base">
            <span className="truncate">
              {member.name}
              {member.age != null && ','}
            </span>
            {/* The bare number, as dating cards write it; the full "… years" is the accessible label. */}
            {member.age != null && (
              <span className="ml-1 shrink-0 font-normal" aria-label={m.lander_age({ age: member.age }, { locale })}>
                {member.age}
              </span>
            )}
          </Name>
          {place && <p className="truncate text-xs text-white/85">{place}</p>}
        </div>
      </div>
    </a>
  );
}

/** Placeholders while a page of results loads. */
export function ProfileCardSkeletons({ count }: { count: number }) {
  return (
    <>
      {Array.from({ length: count }, (_, i) => (
        <li key={i} aria-hidden="true" className="card overflow-hidden">
          <div className="aspect-square animate-pulse bg-gray-100" />
        </li>
      ))}
    </>
  );
}
