import { z } from 'zod';
import { ABOUT_MAX } from '../lib/account-rules.ts';
import { PROFILE_FIELD_KEYS } from '../lib/profile-fields.ts';
import { GENDERS, SEXUALITIES } from './enums.ts';
import { BodyId, QueryId } from './ids.ts';
import { MainImage, ProfileCardData, Relation } from './cards.ts';

const text = (max: number) => z.string().max(max);
const option = (field: keyof typeof PROFILE_FIELD_KEYS) => z.enum(PROFILE_FIELD_KEYS[field]).nullable();

/** PUT /api/profile.php: any subset of the profile's fields. */
export const ProfileBody = z
  .object({
    name: z.string().max(100),
    gender: z.enum(GENDERS),
    sexuality: z.enum(SEXUALITIES),
    birth_date: z.string().max(10),
    country: z.string().regex(/^[A-Z]{2}$/),
    region: text(100).nullable(),
    city: text(100).nullable(),
    hair_color: option('hair_color'),
    eye_color: option('eye_color'),
    body_type: option('body_type'),
    relationship_status: option('relationship_status'),
    tattoos: option('tattoos'),
    reason: option('reason'),
    about: text(ABOUT_MAX).nullable(),
    interests: z.array(z.string().max(40)).max(50),
  })
  .partial()
  .strict();
export type ProfileChanges = z.output<typeof ProfileBody>;
export const PROFILE_MESSAGES = { birth_date: 'birth_date_invalid', name: 'name_length' } as const;

/** GET /api/member.php?id= */
export const MemberQuery = z.object({ id: QueryId });

/** PUT /api/photos.php: make a photo the main one. DELETE: remove one. */
export const SetMainPhotoBody = z.object({ id: BodyId, main: z.literal(true) });
export const PhotoIdBody = z.object({ id: BodyId });

// ---- Answers

/** The member's own profile (GET and PUT /api/profile.php `{profile}`). */
export const OwnProfile = z.object({
  id: z.number().int(),
  name: z.string(),
  gender: z.string(),
  sexuality: z.string(),
  birth_date: z.string(),
  age: z.number().int(),
  country: z.string(),
  region: z.string().nullable(),
  city: z.string().nullable(),
  hair_color: z.string().nullable(),
  eye_color: z.string().nullable(),
  body_type: z.string().nullable(),
  relationship_status: z.string().nullable(),
  tattoos: z.string().nullable(),
  reason: z.string().nullable(),
  about: z.string().nullable(),
  interests: z.array(z.string()),
  status: z.string(),
  main_image: MainImage.nullable(),
});
export type OwnProfile = z.infer<typeof OwnProfile>;
/** GET and PUT /api/profile.php */
export const ProfileAnswer = z.object({ profile: OwnProfile });

/** One of the member's own photos (SPEC §3 photo: active, pending review, rejected). */
export const PhotoView = z.object({
  id: z.number().int(),
  url: z.string(),
  thumb_url: z.string(),
  main: z.boolean(),
  /** pending: waiting for screening, seen only by its owner; rejected: never shown to others (issue 22). */
  status: z.enum(['active', 'pending', 'rejected']),
  /** Why staff rejected it (PHOTO_REJECT_REASONS); only on a rejected photo. */
  reason: z.string().optional(),
});
export type PhotoView = z.infer<typeof PhotoView>;
/** GET, POST, PUT and DELETE /api/photos.php: the member's photos after the change. */
export const PhotosAnswer = z.object({ photos: z.array(PhotoView) });

/** GET /api/profile-options.php: each option field's keys with labels, the fields the brand shows, the fields' labels. */
export const ProfileOptionsAnswer = z.object({
  fields: z.record(z.string(), z.array(z.object({ key: z.string(), label: z.string() }))),
  visible_profile_fields: z.array(z.string()),
  labels: z.record(z.string(), z.string()),
});
export type ProfileOptionsAnswer = z.infer<typeof ProfileOptionsAnswer>;

/** A photo of another member's profile: a locked one (SPEC §1, §6) comes without its addresses. */
export const MemberPhoto = z.object({ id: z.number().int(), main: z.boolean(), locked: z.boolean(), url: z.string().nullable(), thumb_url: z.string().nullable() });
export type MemberPhoto = z.infer<typeof MemberPhoto>;

/** The descriptive fields a member sees of another profile (a visitor gets the card alone). */
export const MemberDetails = z.object({
  hair_color: z.string().nullable(),
  eye_color: z.string().nullable(),
  body_type: z.string().nullable(),
  relationship_status: z.string().nullable(),
  tattoos: z.string().nullable(),
  reason: z.string().nullable(),
  sexuality: z.string(),
  about: z.string().nullable(),
  interests: z.array(z.string()),
  photo_count: z.number().int(),
}).partial();
export type MemberDetails = z.infer<typeof MemberDetails>;

/** GET /api/member.php?id=: another member's profile as the viewer may see it. */
export const MemberAnswer = z.object({
  profile: ProfileCardData.extend({ gender: z.string() }).extend(MemberDetails.shape),
  /** The viewer's likes and block with this profile; null for a visitor and on one's own profile. */
  relation: Relation.nullable(),
  photos: z.array(MemberPhoto),
  /** Related profiles: same gender, the profile's own country first. */
  related: z.array(ProfileCardData),
});
export type MemberAnswer = z.infer<typeof MemberAnswer>;

/** GET /api/signup-matches.php: suggested members after signup. */
export const SignupMatchesAnswer = z.object({ profiles: z.array(ProfileCardData) });
