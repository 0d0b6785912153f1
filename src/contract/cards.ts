import { z } from 'zod';

/** The answers' shared pieces: a profile's main image, its card, how the viewer stands with it. */

/** A profile's main image as the API gives it (urls). The one declaration of it. */
export const MainImage = z.object({ filename: z.string(), thumb_filename: z.string(), status: z.string(), match: z.string() });
export type MainImage = z.infer<typeof MainImage>;

/** The card of another profile in the likes lists, the swipe game and the match finder. */
export const ProfileCardData = z.object({
  id: z.number().int(),
  name: z.string(),
  age: z.number().int(),
  city: z.string().nullable(),
  region: z.string().nullable(),
  country: z.string(),
  fictional: z.boolean(),
  main_image: MainImage.nullable(),
});
export type ProfileCardData = z.infer<typeof ProfileCardData>;

/** How the member stands with a profile they open (the profile's buttons). */
export const Relation = z.object({
  /** The member likes this profile. */
  liked: z.boolean(),
  /** This profile likes the member. */
  liked_me: z.boolean(),
  /** The member blocked this profile (only the blocker still opens it, to unblock). */
  blocked: z.boolean(),
});
export type Relation = z.infer<typeof Relation>;

