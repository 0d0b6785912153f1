import { analyze } from './migrate.ts';
import { wantedGenders } from '../services/search.ts';
import type { Kysely } from 'kysely';
import { LOCALES_BY_COUNTRY, languageOf } from '../../lib/locales.ts';
import { regionsFor } from '../data/regions.ts';
import type { Insertable } from 'kysely';
import type { Database, Gender, LikesTable, NewProfile, Sexuality, UsersTable } from './schema.ts';

type NewUser = Insertable<UsersTable>;
type NewLike = Insertable<LikesTable>;
import { ABOUT_TEXTS, CITIES, DEMO_INTERESTS, FIRST_NAMES, PROFILE_FIELD_KEYS, type City, type NameList } from './seed-data.ts';

/**
 * Demo members so a fresh clone has someone to search, like and chat with (DESIGN §2:
 * `npm start` seeds the embedded database). They are fictional profiles (fictional = 1,
 * no user), which the site labels as such. The data is drawn from a PRNG seeded with the
 * tenant id, so two fresh databases get the same members.
 */

export interface SeedTenant {
  id: string;
  countries: string[];
  /** `available`: the brand's languages; a demo person writes the about-me text in their place's language when the brand offers it. */
  locales: { default: string; available?: readonly string[] };
  niche: number;
}

export interface SeedOptions {
  /** Demo profiles per tenant. */
  perTenant?: number;
  /** Reference time for ages and timestamps; fixed in tests so runs compare equal. */
  now?: Date;
}

/** People per brand by default: a few hundred (the likes issue); `db seed --members N` grows it. */
export const DEFAULT_PER_TENANT = 300;
/** One in this many demo people is a fictional profile; the others are members. */
const FICTIONAL_ONE_IN = 10;
/** A demo member's password hash: not an argon2 string, so no password ever matches. */
export const DEMO_PASSWORD_HASH = '!demo-member-no-login';
/** Rows per insert statement, well under the bound-parameter limits of both engines. */
const INSERT_CHUNK = 100;

/**
 * Adds demo profiles to every tenant that has no fictional profile yet, and leaves the others
 * alone, so it can run at every start. Returns how many profiles it created.
 */
export async function seedDemo(
  db: Kysely<Database>,
  tenants: readonly SeedTenant[],
  opts: SeedOptions = {},
): Promise<{ profiles: number }> {
  const perTenant = opts.perTenant ?? DEFAULT_PER_TENANT;
  const now = opts.now ?? new Date();
  let created = 0;
  for (const tenant of tenants) {
    // One transaction per tenant: a half-seeded tenant would count as seeded next time.
    created += await db.transaction().execute(async (trx) => {
      const { n } = await trx.selectFrom('profiles').select((eb) => eb.fn.countAll<number | string | bigint>().as('n')).where('tenant_id', '=', tenant.id).executeTakeFirstOrThrow();
      const existing = Number(n);
      if (existing >= perTenant) return 0;
      const taken = new Set((await trx.selectFrom('profiles').select('name').where('tenant_id', '=', tenant.id).execute()).map((r) => r.name));
      const people = demoPeople(tenant, perTenant - existing, now, existing, taken);
      const added: DemoLiker[] = [];
      for (let i = 0; i < people.length; i += INSERT_CHUNK) {
        const chunk = people.slice(i, i + INSERT_CHUNK);
        const members = chunk.filter((p) => p.user !== null);
        const users = members.length > 0 ? await trx.insertInto('users').values(members.map((p) => p.user!)).returning('id').execute() : [];
        members.forEach((p, j) => (p.profile.user_id = users[j]!.id));
        added.push(...(await trx.insertInto('profiles').values(chunk.map((p) => p.profile)).returning(['id', 'gender', 'sexuality']).execute()));
      }
      const likes = demoLikes(tenant.id, added, now, existing);
      for (let i = 0; i < likes.length; i += INSERT_CHUNK) {
        await trx.insertInto('likes').values(likes.slice(i, i + INSERT_CHUNK)).onConflict((oc) => oc.columns(['from_profile_id', 'to_profile_id']).doNothing()).execute();
      }
      return people.length;
    });
  }
  if (created) await analyze(db);
  return { profiles: created };
}

/** Age range and share of women per niche (SPEC §2 niches: 1 general, 2 she-, 3 bdsm-, 4 bbw-, 5 gilf-, 6 milf-, 7 gay-). */
interface NicheMix {
  minAge: number;
  maxAge: number;
  women: number;
}

function nicheMix(niche: number): NicheMix {
  switch (niche) {
    case 1:
      return { minAge: 18, maxAge: 70, women: 0.55 };
    // A niche features its women; the members who come for them are men (one in four).
    case 2:
    case 4:
      return { minAge: 20, maxAge: 65, women: 0.75 };
    case 3:
      return { minAge: 20, maxAge: 65, women: 0.6 };
    case 5:
      return { minAge: 55, maxAge: 70, women: 0.75 };
    case 6:
      return { minAge: 35, maxAge: 60, women: 0.7 };
    case 7:
      return { minAge: 20, maxAge: 65, women: 0 };
    default:
      return { minAge: 18, maxAge: 70, women: 0.55 };
  }
}

/** One demo person: the profile, and the member's user row (null for a fictional profile). */
export interface DemoPerson {
  profile: NewProfile;
  user: NewUser | null;
}

/** A demo person as inserted: whom they like follows from gender and sexuality. */
type DemoLiker = { id: number; gender: Gender; sexuality: Sexuality };

/** The demo profiles of one tenant (the profiles of demoPeople). */
export function demoProfiles(tenant: SeedTenant, count: number, now: Date): NewProfile[] {
  return demoPeople(tenant, count, now).map((p) => p.profile);
}

/**
 * `count` demo people of one tenant, a pure function of the tenant, the count, `now` and how many
 * the tenant has already (`start`: the PRNG and the e-mail numbers go on from there).
 */
export function demoPeople(tenant: SeedTenant, count: number, now: Date, start = 0, taken = new Set<string>()): DemoPerson[] {
  const rand = mulberry32(fnv1a(start === 0 ? tenant.id : `${tenant.id}:${start}`));
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)] as T;
  const chance = (p: number) => rand() < p;
  const mix = nicheMix(tenant.niche);
  const siteLanguage = languageOf(tenant.locales.default);
  const offered = new Set((tenant.locales.available ?? [tenant.locales.default]).map(languageOf));
  const rows: DemoPerson[] = [];

  for (let i = 0; i < count; i++) {
    const country = pick(tenant.countries.length > 0 ? tenant.countries : ['NL']);
    const gender: Gender = chance(mix.women) ? 'female' : 'male';
    const sexuality = sexualityFor(tenant.niche, gender, rand);
    const age = mix.minAge + Math.floor(rand() * (mix.maxAge - mix.minAge + 1));
    const birth = birthDate(now, age, Math.floor(rand() * 365));
    const place = placeIn(country, pick);
    const placeLanguage = nameLanguage(country, place.language, siteLanguage);
    const names = FIRST_NAMES[placeLanguage] ?? (FIRST_NAMES.en as NameList);
    // The about-me text in the language of the place, where the brand offers it.
    const abouts = ABOUT_TEXTS[offered.has(placeLanguage) ? placeLanguage : siteLanguage] ?? (ABOUT_TEXTS.en as readonly string[]);
    const name = uniqueName(pick(gender === 'female' ? names.female : names.male), birth, taken, rand);
    const interests = sample(DEMO_INTERESTS, 3 + Math.floor(rand() * 5), rand);
    const createdAt = minutesBefore(now, 60 * 24 * (15 + Math.floor(rand() * 400)));
    // A third was online within the hour, the rest within two weeks.
    const lastSeen = minutesBefore(now, chance(0.33) ? Math.floor(rand() * 60) : 60 + Math.floor(rand() * 60 * 24 * 14));

    const fictional = (start + i) % FICTIONAL_ONE_IN === 0;
    const profile: NewProfile = {
      tenant_id: tenant.id,
      user_id: null,
      name,
      gender,
      sexuality,
      birth_date: birth,
      country,
      region: place.region,
      city: place.city,
      hair_color: age > 55 && chance(0.4) ? 'grey' : pick(PROFILE_FIELD_KEYS.hair_color.filter((h) => h !== 'grey')),
      eye_color: pick(PROFILE_FIELD_KEYS.eye_color),
      body_type: tenant.niche === 4 ? pick(['curvy', 'full']) : pick(PROFILE_FIELD_KEYS.body_type),
      relationship_status: relationshipFor(age, rand),
      tattoos: pick(['none', 'none', 'one', 'several']),
      reason: pick(PROFILE_FIELD_KEYS.reason),
      about: chance(0.9) ? pick(abouts) : null,
      interests: JSON.stringify(interests),
      status: 'active',
      listed: 1,
      fictional: fictional ? 1 : 0,
      last_seen_at: lastSeen,
      created_at: createdAt,
      updated_at: createdAt,
    };
    const user: NewUser | null = fictional
      ? null
      : { tenant_id: tenant.id, email: `${tenant.id}.${start + i}@demo.invalid`, password_hash: DEMO_PASSWORD_HASH, status: 'active', language: tenant.locales.default, signup_date: createdAt };
    rows.push({ profile, user });
  }
  return rows;
}

/**
 * Likes between new demo people: each likes up to 6 people of the genders they look for, and one
 * like in three is returned (a match). Half are still new to the one liked.
 */
function demoLikes(tenantId: string, people: DemoLiker[], now: Date, start: number): NewLike[] {
  const rand = mulberry32(fnv1a(`${tenantId}:likes:${start}`));
  const byGender = { male: people.filter((p) => p.gender === 'male'), female: people.filter((p) => p.gender === 'female') };
  const likes: NewLike[] = [];
  const like = (from: number, to: number) =>
    likes.push({ tenant_id: tenantId, from_profile_id: from, to_profile_id: to, is_new: rand() < 0.5 ? 1 : 0, created_at: minutesBefore(now, Math.floor(rand() * 60 * 24 * 30)) });
  for (const p of people) {
    const wanted = wantedGenders(p).flatMap((g) => byGender[g]);
    if (wanted.length === 0) continue;
    const k = Math.floor(rand() * 7);
    for (let j = 0; j < k; j++) {
      const other = wanted[Math.floor(rand() * wanted.length)]!;
      if (other.id === p.id) continue;
      like(p.id, other.id);
      if (rand() < 1 / 3) like(other.id, p.id);
    }
  }
  return likes;
}

function sexualityFor(niche: number, gender: Gender, rand: () => number): Sexuality {
  if (niche === 7) return 'gay';
  const r = rand();
  if (gender === 'female') return r < 0.75 ? 'hetero' : r < 0.9 ? 'bi' : 'lesbian';
  return r < 0.78 ? 'hetero' : r < 0.9 ? 'bi' : 'gay';
}

function relationshipFor(age: number, rand: () => number): string {
  const r = rand();
  if (age < 30) return r < 0.85 ? 'single' : 'relationship';
  if (age < 45) return r < 0.6 ? 'single' : r < 0.9 ? 'divorced' : 'married';
  return r < 0.35 ? 'single' : r < 0.8 ? 'divorced' : r < 0.92 ? 'widowed' : 'married';
}

/**
 * First names follow the place the member lives in (a demo member in Munich on an English
 * site is called Sabine, one in Liège Céline), falling back to the site's language.
 */
function nameLanguage(country: string, cityLanguage: string | undefined, siteLanguage: string): string {
  const local = LOCALES_BY_COUNTRY[country]?.[0];
  const language = cityLanguage ?? (local ? languageOf(local) : siteLanguage);
  return FIRST_NAMES[language] ? language : siteLanguage;
}

/** Profile names are unique per tenant: a repeated first name gets the birth year or digits, as members do. */
function uniqueName(first: string, birth: string, taken: Set<string>, rand: () => number): string {
  const r = rand();
  const yy = birth.slice(2, 4);
  let name = r < 0.55 ? first : r < 0.85 ? `${first}${yy}` : `${first.toLowerCase()}_${yy}`;
  // Two digits first, as members pick them; more once those run out (a seed of 100,000 members).
  for (let tries = 0, room = 90; taken.has(name); tries++) {
    if (tries > 0 && tries % 20 === 0) room *= 10;
    name = `${first}${room / 9 + Math.floor(rand() * room)}`;
  }
  taken.add(name);
  return name;
}

/** `k` different items of `list`, kept in the list's order. */
function sample<T>(list: readonly T[], k: number, rand: () => number): T[] {
  const indexes = list.map((_, i) => i);
  for (let i = 0; i < k && i < indexes.length; i++) {
    const j = i + Math.floor(rand() * (indexes.length - i));
    [indexes[i], indexes[j]] = [indexes[j] as number, indexes[i] as number];
  }
  return indexes
    .slice(0, k)
    .sort((a, b) => a - b)
    .map((i) => list[i] as T);
}

/** A real city and its region; for a country without a city list, a region only. */
function placeIn(country: string, pick: <T>(list: readonly T[]) => T): { region: string | null; city: string | null; language?: string } {
  const cities: readonly City[] | undefined = CITIES[country];
  if (cities) return pick(cities);
  const regions = regionsFor(country);
  return { region: regions.length > 0 ? pick(regions).name : null, city: null };
}

/** YYYY-MM-DD of someone who is exactly `age` on `now`, born `daysBack` days after the earliest such date. */
function birthDate(now: Date, age: number, daysBack: number): string {
  const latest = Date.UTC(now.getUTCFullYear() - age, now.getUTCMonth(), now.getUTCDate());
  return new Date(latest - daysBack * 86_400_000).toISOString().slice(0, 10);
}

function minutesBefore(now: Date, minutes: number): string {
  return new Date(now.getTime() - minutes * 60_000).toISOString();
}

/** 32-bit FNV-1a: a stable seed from the tenant id. */
function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Small deterministic PRNG (mulberry32): the same seed gives the same demo members. */
function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
