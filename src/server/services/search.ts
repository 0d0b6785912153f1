import type { Kysely } from 'kysely';
import type { Database } from '../db/index.ts';
import type { Gender, Profile } from '../db/schema.ts';
import type { Tenant } from '../../tenant/schema.ts';
import { AppError } from '../errors.ts';
import type { SearchQuery } from '../../contract/search.ts';
import { ageOn } from '../../lib/account-rules.ts';
import { findRegion } from '../data/regions.ts';
import { mediaUrl, type MainImage } from './main-image.ts';
import { visibleProfiles } from './visibility.ts';

import { PER_PAGE, SIMILAR_PROFILES, SEARCH_MIN_AGE, SEARCH_MAX_AGE, MAX_PAGE } from '../../contract/enums.ts';

export { PER_PAGE, SIMILAR_PROFILES, SEARCH_MIN_AGE, SEARCH_MAX_AGE, MAX_PAGE };

/** The query of GET /api/members.php after its types and ranges were checked: the contract's. */
export type { SearchQuery };

/** One result of the search: what a member card shows. */
export interface SearchCard {
  id: number;
  name: string;
  age: number;
  gender: Gender;
  country: string;
  region: string | null;
  city: string | null;
  fictional: boolean;
  main_image: MainImage | null;
}

export interface SearchResult {
  profiles: SearchCard[];
  total: number;
  page: number;
  per_page: number;
  pages: number;
  /** Only when nothing matched: profiles of the searched gender, with the other filters dropped. */
  similar?: SearchCard[];
}

const invalid = (field: string) => new AppError('invalid_input', 400, { key: 'error_bad_request', field });

/** `YYYY-MM-DD` of `today` minus `years` years, spelled out (02-29 stays 02-29) so it compares like ageOn(). */
function yearsBefore(today: Date, years: number): string {
  const y = String(today.getUTCFullYear() - years).padStart(4, '0');
  const m = String(today.getUTCMonth() + 1).padStart(2, '0');
  const d = String(today.getUTCDate()).padStart(2, '0');
  return `${y}-${m}-${d}`;
}

/** The genders a member looks for, from the own gender and sexuality. */
export function wantedGenders(me: Pick<Profile, 'gender' | 'sexuality'>): Gender[] {
  if (me.sexuality === 'bi') return ['male', 'female'];
  if (me.sexuality === 'hetero') return [me.gender === 'male' ? 'female' : 'male'];
  return [me.gender];
}

/** The main images of many profiles in one query, as mainImage() answers them one by one. */
async function mainImages(db: Kysely<Database>, profileIds: number[]): Promise<Map<number, MainImage>> {
  const images = new Map<number, MainImage>();
  if (profileIds.length === 0) return images;
  const photos = await db
    .selectFrom('photos')
    .select(['profile_id', 'filename', 'thumb_filename', 'status'])
    .where('profile_id', 'in', profileIds)
    .where('is_main', '=', 1)
    .orderBy('id', 'asc')
    .execute();
  for (const photo of photos) {
    if (images.has(photo.profile_id)) continue; // the first, as mainImage() takes it
    const thumb = mediaUrl(photo.thumb_filename);
    images.set(photo.profile_id, { filename: mediaUrl(photo.filename), thumb_filename: thumb, status: photo.status, match: thumb });
  }
  return images;
}

type CardRow = Pick<Profile, 'id' | 'name' | 'birth_date' | 'gender' | 'country' | 'region' | 'city' | 'fictional'>;
const CARD_COLUMNS = ['profiles.id', 'profiles.name', 'profiles.birth_date', 'profiles.gender', 'profiles.country', 'profiles.region', 'profiles.city', 'profiles.fictional'] as const;

export function createSearchService(deps: { db: Kysely<Database> }) {
  const { db } = deps;

  async function cards(rows: CardRow[]): Promise<SearchCard[]> {
    const images = await mainImages(db, rows.map((r) => r.id));
    const today = new Date();
    return rows.map((p) => ({
      id: p.id,
      name: p.name,
      age: ageOn(p.birth_date, today),
      gender: p.gender,
      country: p.country,
      region: p.region,
      city: p.city,
      fictional: p.fictional === 1,
      main_image: images.get(p.id) ?? null,
    }));
  }

  return {
    /**
     * The member search (GET /api/members.php). `userId` is the searching member, or null for a
     * visitor the brand lets search (SPEC §6). A member without a gender filter sees the genders
     * the own profile looks for; a visitor sees both. Results come from the brand's active,
     * visible profiles, the searcher's own country first, then the own region, then the most
     * recently seen. `visitorCountry` (geo-IP) orders a visitor's results the same way.
     */
    async members(tenant: Tenant, userId: number | null, query: SearchQuery, visitorCountry: string | null = null): Promise<SearchResult> {
      if (query.country !== undefined && !tenant.countries.includes(query.country)) throw invalid('country');
      if (query.min_age !== undefined && query.max_age !== undefined && query.min_age > query.max_age) throw invalid('max_age');
      // A region is stored by its name; without a country it may name a region of any of the brand's countries.
      let regions: { country: string; name: string }[] | undefined;
      if (query.region !== undefined) {
        regions = (query.country ? [query.country] : tenant.countries).flatMap((country) => {
          const found = findRegion(country, query.region);
          return found ? [{ country, name: found.name }] : [];
        });
        if (regions.length === 0) throw invalid('region');
      }

      const me = userId === null ? undefined : await db.selectFrom('profiles').select(['id', 'gender', 'sexuality', 'country', 'region']).where('user_id', '=', userId).executeTakeFirst();
      const genders: Gender[] | undefined = query.gender ? [query.gender] : me ? wantedGenders(me) : undefined;
      const homeCountry = me?.country ?? (visitorCountry && tenant.countries.includes(visitorCountry) ? visitorCountry : null);
      const homeRegion = me?.region ?? null;

      const today = new Date();
      // age >= min ⇔ born on or before today − min years; age <= max ⇔ born after today − (max + 1) years.
      const bornOnOrBefore = query.min_age !== undefined ? yearsBefore(today, query.min_age) : undefined;
      const bornAfter = query.max_age !== undefined ? yearsBefore(today, query.max_age + 1) : undefined;

      /** The brand's active profiles others may see: not invisible (fictional ones have no user), not the searcher's own. */
      const visible = () => {
        let q = visibleProfiles(db, tenant.id, me && userId !== null ? { userId, profileId: me.id } : null);
        if (genders) q = q.where('profiles.gender', 'in', genders);
        return q;
      };
      type Base = ReturnType<typeof visible>;
      const filtered = (): Base => {
        let q = visible();
        if (query.country) q = q.where('profiles.country', '=', query.country);
        if (regions) {
          const wanted = regions;
          q = q.where((eb) => eb.or(wanted.map((r) => eb.and([eb('profiles.country', '=', r.country), eb('profiles.region', '=', r.name)]))));
        }
        if (bornOnOrBefore) q = q.where('profiles.birth_date', '<=', bornOnOrBefore);
        if (bornAfter) q = q.where('profiles.birth_date', '>', bornAfter);
        return q;
      };
      const ordered = (q: Base): Base => {
        let out = q;
        if (homeCountry) out = out.orderBy((eb) => eb.case().when('profiles.country', '=', homeCountry).then(0).else(1).end());
        if (homeCountry && homeRegion) {
          out = out.orderBy((eb) =>
            eb
              .case()
              .when(eb.and([eb('profiles.country', '=', homeCountry), eb('profiles.region', '=', homeRegion)]))
              .then(0)
              .else(1)
              .end(),
          );
        }
        // Most recently seen first, never-seen last (NULLS LAST spelled out for both engines).
        return out
          .orderBy((eb) => eb.case().when('profiles.last_seen_at', 'is', null).then(1).else(0).end())
          .orderBy('profiles.last_seen_at', 'desc')
          .orderBy('profiles.id', 'desc');
      };

      const { n } = await filtered()
        .select((eb) => eb.fn.countAll<number | string | bigint>().as('n'))
        .executeTakeFirstOrThrow();
      const total = Number(n);
      const rows = await ordered(filtered())
        .select(CARD_COLUMNS)
        .limit(PER_PAGE)
        .offset((query.page - 1) * PER_PAGE)
        .execute();
      const result: SearchResult = {
        profiles: await cards(rows),
        total,
        page: query.page,
        per_page: PER_PAGE,
        pages: Math.ceil(total / PER_PAGE),
      };
      if (total === 0) {
        const similar = await ordered(visible()).select(CARD_COLUMNS).limit(SIMILAR_PROFILES).execute();
        result.similar = await cards(similar);
      }
      return result;
    },
  };
}

export type SearchService = ReturnType<typeof createSearchService>;
