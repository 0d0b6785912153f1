/**
 * Orders a store's reads against the member's own changes. A list read that overlapped a change
 * (asked while one was under way, or while one began) may carry the state from before it: kept,
 * it would undo what the member just did until the next read. The CI failure it answers: the
 * photos page's first read, arriving after a quick upload's own answer, hid the new photo. A chat
 * removed while the periodic refresh is on its way, a like given then, and a notification switch
 * moved before the page's first read came back have the same shape.
 */
export interface ReadOrder {
  /** Runs one of the member's changes; reads that overlap it are not kept. */
  change<T>(work: () => Promise<T>): Promise<T>;
  /** Reads; `keep` takes the answer only when no change overlapped the read. */
  read<T>(load: () => Promise<T>, keep: (answer: T) => void): Promise<T>;
}

export function readOrder(): ReadOrder {
  // Bumped as a change begins and as it ends: a read that saw the same value at both ends and
  // started with no change under way overlapped none.
  let epoch = 0;
  let underway = 0;
  return {
    async change(work) {
      epoch += 1;
      underway += 1;
      try {
        return await work();
      } finally {
        underway -= 1;
        epoch += 1;
      }
    },
    async read(load, keep) {
      const before = epoch;
      const clear = underway === 0;
      const answer = await load();
      if (clear && epoch === before) keep(answer);
      return answer;
    },
  };
}
