import { z } from 'zod';
import { ABOUT_MAX } from '../lib/account-rules.ts';
import { PROFILE_FIELD_KEYS } from '../lib/profile-fields.ts';
import { GENDERS, SEXUALITIES } from './enums.ts';
import { BodyId, QueryId } from './ids.ts';

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
