/**
 * The typing indicator of the chat (SPEC §2): the page sends a typing event at most every 3 s
 * while the member types, and shows the other's for 6 s after the last one. Kept apart from the
 * contract's schemas so the browser gets the numbers without zod.
 */
export const TYPING_SHOW_MS = 6_000;
export const TYPING_SEND_EVERY_MS = 3_000;
