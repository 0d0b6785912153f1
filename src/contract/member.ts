import type { ProfileCardData, Relation } from './likes.ts';
import type { OptionField } from '../lib/profile-fields.ts';

/** A photo of another member's profile: a locked one (SPEC §1, §6) comes without its addresses. */
export interface MemberPhoto {
  id: number;
  main: boolean;
  locked: boolean;
  url: string | null;
  thumb_url: string | null;
}

/** The descriptive fields a member sees of another profile (a visitor gets the card alone). */
export type MemberDetails = { [field in OptionField]?: string | null } & {
  sexuality?: string;
  about?: string | null;
  interests?: string[];
  photo_count?: number;
};

/** GET /api/member.php?id=: another member's profile as the viewer may see it. */
export interface MemberAnswer {
  profile: ProfileCardData & { gender: string } & MemberDetails;
  /** The viewer's likes and block with this profile; null for a visitor and on one's own profile. */
  relation: Relation | null;
  photos: MemberPhoto[];
  /** Related profiles: same gender, the profile's own country first. */
  related: ProfileCardData[];
}
