/**
 * A count of the changes of listings in this process: a profile listed or unlisted
 * (visibility.ts relist), or a field listings filter and order by edited (a profile's gender,
 * place, birth date). The shared lists of listing-cache.ts are kept by it, so every list read
 * before a change is read again after it. Other processes notice within the lists' few seconds.
 */
let generation = 0;

export function listingsChanged(): void {
  generation++;
}

export function listingGeneration(): number {
  return generation;
}
