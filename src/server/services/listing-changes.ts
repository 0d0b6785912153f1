import type { Write } from '../db/writes.ts';

/**
 * Counts of the changes the shared lists and cards of listing-cache.ts are kept by: every list
 * and card read before a change is read again after it.
 *
 * - listings: a profile listed or unlisted (visibility.ts relist: its status, the member's
 *   invisible mode, a suspension, the own-brand-only choice), deleted, retired, or a field listings
 *   filter, order or scope by edited (gender, place, birth date, body type, interests).
 * - cards: any of those, or what a card shows (name, city) or its main image (any photo written).
 *
 * Where they are heard (followListingChanges): this process's writes from the database adapter
 * (db/index.ts onWrite: on SQLite as each statement is prepared, on PostgreSQL as it is sent and
 * again once it commits, so a read between the two is not kept past the commit), and the other
 * processes' on PostgreSQL from the triggers of migration 2026-11-27-0300 on the bus (topic
 * `listings`, sent at commit). What neither hears (another process on SQLite: the CLI; a bus that
 * stopped listening) shows in the epoch the cache keys by (listing-cache.ts).
 */
let listings = 0;
let cards = 0;

/** A listing changed in this process (followListingChanges, from the adapter's report of the write: services do not call it themselves). */
export function listingsChanged(): void {
  listings++;
  cards++;
}

/** What a card shows changed (a name, a main image), not who is listed. */
export function cardsChanged(): void {
  cards++;
}

export function listingGeneration(): number {
  return listings;
}

export function cardGeneration(): number {
  return cards;
}

/** The columns of `profiles` a listing reads to choose and order whom it shows (last_seen_at's order may be a list's few seconds old). */
const LISTING_COLUMNS = new Set(['listed', 'pooled', 'status', 'retired_at', 'tenant_id', 'user_id', 'gender', 'sexuality', 'country', 'region', 'birth_date', 'body_type', 'interests', 'fictional']);
/** The columns of `profiles` a card shows beside those. */
const CARD_COLUMNS = new Set(['name', 'city']);

/** What a write changes of listings: their lists, only their cards, or nothing (a last-seen time, a counter). */
export function changeOf(write: Write): 'listings' | 'cards' | null {
  if (write.table === null) return 'listings';
  if (write.table === 'photos') return 'cards'; // a main image chosen, screened, deleted; a first photo where brands screen after showing
  if (write.table !== 'profiles' || write.kind === 'insert') return null; // a new profile: the newest id (listing-cache.ts)
  if (write.columns === null || write.columns.some((c) => LISTING_COLUMNS.has(c))) return 'listings';
  return write.columns.some((c) => CARD_COLUMNS.has(c)) ? 'cards' : null;
}

/** Where the listing cache hears of changes (the session cache's source has the same shape: app.ts). */
export interface ListingChangeSource {
  /** This process's writes (the database adapter tells each). */
  onWrite(listener: (write: Write) => void): () => void;
  /**
   * What says another process may have written anything the bus did not tell: a number that
   * changes then (SQLite's data_version, the bus's listening stretch), or null while nothing can
   * be trusted to be heard.
   */
  epoch(): number | null;
  /** Another process's change of a listing or a card (PostgreSQL: the triggers' events on the bus). */
  onChange?(listener: (event: object) => void): () => void;
  /**
   * SQLite: which rows this process writes (db/sqlite-dialect.ts onRowWrite), for what is kept per
   * member (own-views.ts). Absent on PostgreSQL, where other processes write too.
   */
  onRowWrite?(table: string, columns: readonly string[], updateOf: readonly string[], listener: (values: unknown[]) => void): () => void;
}

/** Counts this process's writes and the other processes' changes as they are heard; returns the function that stops it. */
export function followListingChanges(source: ListingChangeSource): () => void {
  const stopWrites = source.onWrite((write) => {
    const change = changeOf(write);
    if (change === 'listings') listingsChanged();
    else if (change === 'cards') cardsChanged();
  });
  const stopChanges = source.onChange?.((event) => ((event as { cards?: unknown }).cards === true ? cardsChanged() : listingsChanged()));
  return () => {
    stopWrites();
    stopChanges?.();
  };
}
