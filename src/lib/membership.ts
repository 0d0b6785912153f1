/** What free and premium membership allow (SPEC §1, §6, §9); the first credit purchase makes a member premium. */

/** Photos a free member may have. SPEC §9 */
export const FREE_PHOTOS = 3;
/** Photos a premium member may have. SPEC §9 */
export const PREMIUM_PHOTOS = 25;
/** Conversations a free member may start. SPEC §9 */
export const FREE_CONVERSATIONS = 2;
/** The higher match chance the marketing text claims for premium, in percent. SPEC §1 */
export const PREMIUM_MATCH_BOOST = 46;
