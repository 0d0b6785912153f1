import { z } from 'zod';
import { LOCALES } from '../lib/locales.ts';
import { PASSWORD_MAX } from '../lib/account-rules.ts';
import { MainImage } from './cards.ts';

/** The user of SPEC §3 as pages and islands see it (GET /api/user.php `{user}`). */
export const SiteUser = z.object({
  id: z.number().int(),
  email: z.string(),
  status: z.string(),
  credits: z.number().int(),
  paid_user: z.boolean(),
  language: z.string().nullable(),
  notifications_disabled: z.array(z.object({ type: z.string(), reason: z.string() })),
  signup_date: z.string(),
  /** Invisible mode: the member is not shown in searches and online lists. */
  invisible: z.boolean(),
  /** Shown on the own brand only, not on the other brands of its pool (issue 24). */
  own_brand_only: z.boolean(),
  profile: z
    .object({
      id: z.number().int(),
      name: z.string(),
      country: z.string(),
      status: z.string(),
      main_image: MainImage.nullable(),
    })
    .nullable(),
});
export type SiteUser = z.infer<typeof SiteUser>;

/** GET /api/user.php: the logged-in member, or null. */
export const UserAnswer = z.object({ user: SiteUser.nullable() });
/** Logging in, signing up, activating, reactivating and saving settings: the member. */
export const LoggedInAnswer = z.object({ user: SiteUser });
export type LoggedInAnswer = z.infer<typeof LoggedInAnswer>;

/** POST /api/user.php: log in. */
export const LoginBody = z.object({ email: z.string().max(254), password: z.string().min(1).max(PASSWORD_MAX) });

/** PUT /api/user.php: the settings a member changes on the user record. */
export const UserSettingsBody = z.object({ language: z.enum(LOCALES).optional(), invisible: z.boolean().optional(), own_brand_only: z.boolean().optional() }).strict();
export type UserSettings = z.output<typeof UserSettingsBody>;

/** A browser's PushSubscription.toJSON() (W3C Push API): an https endpoint and two base64url keys. */
const base64url = (max: number) => z.string().min(1).max(max).regex(/^[A-Za-z0-9_-]+=*$/);
/** A push service on the public internet: a named host, never an address or a local name the runtime could reach inside. */
const pushHost = /^(?=.*[a-z])(?!localhost$)(?!.*\.(local|internal|localhost)$)[a-z0-9-]+(\.[a-z0-9-]+)+$/;

/** POST /api/user.php?push=1 */
export const PushBody = z.object({
  subscription: z.object({
    endpoint: z.url({ protocol: /^https$/, hostname: pushHost }).max(2048),
    expirationTime: z.number().nullish(),
    keys: z.object({ p256dh: base64url(200), auth: base64url(64) }),
  }),
});
export type PushSubscriptionInput = z.output<typeof PushBody>['subscription'];
