/**
 * The brand's day (SPEC §9: the swipe game's 4 likes per day): from midnight to midnight in the
 * brand's time zone, daylight saving included.
 */

/** A zone's wall-clock format, made once per zone: making one costs far more than using it (the swipe deck asks five times a request). */
const wallClocks = new Map<string, Intl.DateTimeFormat>();

/** Milliseconds the zone's wall clock is ahead of UTC at `instant`. */
function zoneOffset(instant: number, timeZone: string): number {
  let wallClock = wallClocks.get(timeZone);
  if (!wallClock) wallClocks.set(timeZone, (wallClock = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' })));
  const parts = wallClock.formatToParts(instant);
  const n = (type: string) => Number(parts.find((p) => p.type === type)!.value);
  const wall = Date.UTC(n('year'), n('month') - 1, n('day'), n('hour'), n('minute'), n('second'));
  return wall - Math.floor(instant / 1000) * 1000;
}

/** The instant of midnight starting the zone's calendar day `y-m-d` (days past the month's end roll over). */
function midnight(y: number, m: number, d: number, timeZone: string): Date {
  const wall = Date.UTC(y, m - 1, d);
  // The offset at the guess, then at the corrected instant: right across a DST change too.
  let instant = wall - zoneOffset(wall, timeZone);
  instant = wall - zoneOffset(instant, timeZone);
  return new Date(instant);
}

/** The start and end (the next day's start) of the day `now` falls in, in `timeZone`. */
export function brandDay(now: Date, timeZone: string): { start: Date; end: Date } {
  const local = new Date(now.getTime() + zoneOffset(now.getTime(), timeZone));
  const [y, m, d] = [local.getUTCFullYear(), local.getUTCMonth() + 1, local.getUTCDate()];
  return { start: midnight(y, m, d, timeZone), end: midnight(y, m, d + 1, timeZone) };
}

const dateFormats = new Map<string, Intl.DateTimeFormat>();

/** The brand's calendar date of an instant, YYYY-MM-DD (the day figures are counted on, issue 23). */
export function brandDate(now: Date, timeZone: string): string {
  let format = dateFormats.get(timeZone);
  // en-CA writes dates as YYYY-MM-DD.
  if (!format) dateFormats.set(timeZone, (format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' })));
  return format.format(now);
}
