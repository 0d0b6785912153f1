/** Another member's profile (GET /api/member.php): its schemas live in profile.ts beside the request. */
export { MemberAnswer, MemberDetails, MemberPhoto } from './profile.ts';
