import type { Kysely } from 'kysely';
import type { Database } from '../db/index.ts';
import type { Profile } from '../db/schema.ts';
import { nowIso } from '../db/engine.ts';
import type { Tenant } from '../../tenant/schema.ts';
import { AppError } from '../errors.ts';
import { birthDateProblem, nameProblem, ageOn, MIN_AGE } from '../../lib/account-rules.ts';
import { isInterestKey } from '../data/interests.ts';
import { clearNewLike, relationOf } from './likes.ts';
import { profileCards } from './cards.ts';
import { findRegion } from '../data/regions.ts';
import { mainImage, ownMainImage } from './main-image.ts';
import { mediaUrl } from '../media-address.ts';
import { bandedPage, homeBands, visibleProfiles } from './visibility.ts';
import type { ScopeOf } from './pool.ts';
import { GENDERS } from '../../contract/enums.ts';
import { wantedGenders } from './search.ts';
import type { OptionField } from '../../lib/profile-fields.ts';
import type { ProfileChanges } from '../../contract/profile.ts';

/** The fields a member may change on the own profile (PUT /api/profile.php): the contract's. */
export type { ProfileChanges };

/** Which tenant field (visible_profile_fields) governs each profile column. */
const FIELD_OF: Record<keyof ProfileChanges, string> = {
  name: 'name',
  gender: 'gender',
  sexuality: 'sexuality',
  birth_date: 'birth_date',
  country: 'region',
  region: 'region',
  city: 'city',
  hair_color: 'hair_color',
  eye_color: 'eye_color',
  body_type: 'body_type',
  relationship_status: 'relationship_status',
  tattoos: 'tattoos',
  reason: 'reason',
  about: 'about',
  interests: 'interests',
};

/** How many related profiles a profile page shows. */
export const RELATED_PROFILES = 6;

export function profileView(p: Profile) {
  return {
    id: p.id,
    name: p.name,
    gender: p.gender,
    sexuality: p.sexuality,
    birth_date: p.birth_date,
    age: ageOn(p.birth_date, new Date()),
    country: p.country,
    region: p.region,
    city: p.city,
    hair_color: p.hair_color,
    eye_color: p.eye_color,
    body_type: p.body_type,
    relationship_status: p.relationship_status,
    tattoos: p.tattoos,
    reason: p.reason,
    about: p.about,
    interests: JSON.parse(p.interests) as string[],
    status: p.status,
  };
}

/**
 * The columns to write for changes to a profile, after the SPEC §5 rules (a member's own profile
 * and a fictional profile staff edit, issue 22): a field the brand hides cannot be set, the name
 * and birth date rules, a country of the brand, a region of that country, known interests.
 * Refusals are AppErrors naming the field.
 */
export function profileColumns(tenant: Tenant, profile: Pick<Profile, 'country'>, changes: ProfileChanges, email: string | null) {
  const visible = new Set<string>(tenant.visible_profile_fields);
  for (const key of Object.keys(changes) as (keyof ProfileChanges)[]) {
    if (key !== 'name' && !visible.has(FIELD_OF[key])) throw new AppError('invalid_input', 400, { key: 'error_bad_request', field: key });
  }
  if (changes.name !== undefined) {
    const problem = nameProblem(changes.name, email);
    if (problem) throw new AppError(problem, 400, { field: 'name' });
  }
  if (changes.birth_date !== undefined) {
    const problem = birthDateProblem(changes.birth_date);
    if (problem) throw new AppError(problem, 400, { field: 'birth_date', params: { min_age: MIN_AGE } });
  }
  const country = changes.country ?? profile.country;
  if (changes.country !== undefined && !tenant.countries.includes(changes.country)) throw new AppError('invalid_input', 400, { key: 'error_bad_request', field: 'country' });
  let region = changes.region === '' ? null : changes.region;
  if (region) {
    const found = findRegion(country, region);
    if (!found) throw new AppError('invalid_input', 400, { key: 'error_bad_request', field: 'region' });
    region = found.name;
  } else if (changes.country !== undefined && changes.country !== profile.country && region === undefined) {
    region = null; // a region of the old country means nothing in the new one
  }
  if (changes.interests && !changes.interests.every(isInterestKey)) throw new AppError('invalid_input', 400, { key: 'error_bad_request', field: 'interests' });
  const { interests, ...rest } = changes;
  return {
    ...rest,
    ...(rest.name !== undefined ? { name: rest.name.trim() } : {}),
    ...(rest.about !== undefined ? { about: rest.about?.trim() || null } : {}),
    ...(rest.city !== undefined ? { city: rest.city?.trim() || null } : {}),
    ...(region !== undefined ? { region } : {}),
    ...(interests ? { interests: JSON.stringify([...new Set(interests)]) } : {}),
    updated_at: nowIso(),
  };
}

export function createProfileService(deps: { db: Kysely<Database>; scopeOf: ScopeOf }) {
  const { db } = deps;

  async function own(userId: number): Promise<Profile> {
    const profile = await db.selectFrom('profiles').selectAll().where('user_id', '=', userId).executeTakeFirst();
    if (!profile) throw new AppError('not_found', 404, { key: 'error_not_found_api' });
    return profile;
  }


  return {
    async get(userId: number) {
      const profile = await own(userId);
      return { ...profileView(profile), main_image: await ownMainImage(db, profile.id) };
    },

    /** Saves the changed fields after the SPEC §5 rules; a field the brand hides cannot be set. */
    async update(tenant: Tenant, userId: number, email: string, changes: ProfileChanges) {
      const profile = await own(userId);
      await db
        .updateTable('profiles')
        .set(profileColumns(tenant, profile, changes, email))
        .where('id', '=', profile.id)
        .execute();
      return this.get(userId);
    },

    /**
     * Another member's profile (GET /api/member.php): a visitor sees the card (name, age, place,
     * main image) that the member-id signup block shows; a member also sees the descriptive fields,
     * the photos (a free member only the main one, the others locked: SPEC §1, §6) and related
     * profiles. Invisible, disabled and other brands' profiles are not found.
     */
    async publicProfile(tenant: Tenant, id: number, viewer: { /** user id */ id: number; paid_user: boolean; /** the viewer's own profile (the session has it) */ profileId: number | null } | null) {
      const seer = viewer ? { userId: viewer.id, profileId: viewer.profileId } : null;
      const p = await visibleProfiles(db, deps.scopeOf(tenant), seer, { self: true, blockedByMe: true }).selectAll('profiles').where('profiles.id', '=', id).executeTakeFirst();
      if (!p) throw new AppError('not_found', 404, { key: 'error_not_found_api' });
      const card = {
        id: p.id,
        name: p.name,
        age: ageOn(p.birth_date, new Date()),
        gender: p.gender,
        country: p.country,
        region: p.region,
        city: p.city,
        fictional: p.fictional === 1,
        main_image: await mainImage(db, p.id),
      };
      if (!viewer) return { profile: card, photos: [], related: [], relation: null };
      const me = viewer.profileId !== null && viewer.profileId !== p.id ? viewer.profileId : null;
      const relation = me !== null ? await relationOf(db, me, p.id) : null;
      // Opening a profile clears the new-like flag of its like of the viewer (SPEC §4): a write
      // only when there is such a like, not on every profile view.
      if (me !== null && relation?.liked_me) await clearNewLike(db, me, p.id);
      const { birth_date: _birth, status: _status, ...details } = profileView(p);
      const photos = await db
        .selectFrom('photos')
        .select(['id', 'filename', 'thumb_filename', 'is_main'])
        .where('profile_id', '=', p.id)
        .where('status', '=', 'active')
        .orderBy('is_main', 'desc')
        .orderBy('position')
        .orderBy('id')
        .execute();
      // Same gender, the profile's own country first, most recently seen first.
      const related = await bandedPage(
        (band) => visibleProfiles(db, deps.scopeOf(tenant), seer, { where: [band, (eb) => eb('profiles.gender', '=', p.gender)] }).where('profiles.id', '!=', p.id),
        homeBands(p.country, null),
        (q, limit, offset) => q.selectAll('profiles').limit(limit).offset(offset).execute(),
        { offset: 0, limit: RELATED_PROFILES },
      );
      const relatedCards = await profileCards(db, related);
      return {
        profile: { ...card, ...details, photo_count: photos.length },
        /** The viewer's likes and block with this profile; null on the viewer's own profile. */
        relation,
        photos: photos.map((photo, i) => {
          const locked = !viewer.paid_user && i > 0 && p.user_id !== viewer.id;
          // Active photos only (the query above): approved, so under the brand's cdn_prefix where it has one.
          return { id: photo.id, main: card.main_image?.filename === mediaUrl(photo.filename, 'active'), locked, url: locked ? null : mediaUrl(photo.filename, 'active'), thumb_url: locked ? null : mediaUrl(photo.thumb_filename, 'active') };
        }),
        related: relatedCards.map((c) => c.card),
      };
    },

    /**
     * Whether the viewer may open a profile (the one visibility rule, with their own and the ones
     * they blocked, to unblock): what the profile screen's shell asks before it is sent.
     */
    async canOpen(tenant: Tenant, id: number, viewer: { userId: number; profileId: number | null }): Promise<boolean> {
      const found = await visibleProfiles(db, deps.scopeOf(tenant), viewer, { self: true, blockedByMe: true }).select('profiles.id').where('profiles.id', '=', id).executeTakeFirst();
      return found !== undefined;
    },

    /** Suggested members after signup: active profiles of the brand the member is looking for. */
    async signupMatches(tenant: Tenant, userId: number, limit = 12) {
      const me = await own(userId);
      const wanted = wantedGenders(me);
      const rows = await bandedPage(
        (band) => visibleProfiles(db, deps.scopeOf(tenant), { userId, profileId: me.id }, { where: [band, wanted.length < GENDERS.length ? (eb) => eb('profiles.gender', 'in', wanted) : null] }),
        homeBands(me.country, me.region),
        (q, limit, offset) => q.selectAll('profiles').limit(limit).offset(offset).execute(),
        { offset: 0, limit },
      );
      return (await profileCards(db, rows)).map((c) => c.card);
    },
  };
}

export type ProfileService = ReturnType<typeof createProfileService>;
export type { OptionField };
