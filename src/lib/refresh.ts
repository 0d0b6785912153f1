export const REFRESH_PERIOD_S = 60; // SPEC §9
export const REFRESH_PERIOD_PUSH_S = 300; // SPEC §9: with a push subscription
export const REFRESH_FIRST_DELAY_S = 5; // SPEC §4, §9: starting 5 s after the page is shown

/** Seconds between refreshes of the user, chats and likes while logged in. */
export function refreshPeriodSeconds(pushSubscribed: boolean): number {
  return pushSubscribed ? REFRESH_PERIOD_PUSH_S : REFRESH_PERIOD_S;
}

/** Seconds from the page being shown to each of the first refreshes: 5, then every period. */
export function refreshSchedule(pushSubscribed: boolean, count: number): number[] {
  const period = refreshPeriodSeconds(pushSubscribed);
  return Array.from({ length: count }, (_, i) => REFRESH_FIRST_DELAY_S + i * period);
}
