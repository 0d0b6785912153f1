/**
 * A store's reads kept behind the member's own changes to it. A read on its way while a change
 * began may answer the state from before that change and, arriving last, replace the change's
 * own answer with it: the photos' first read, still on its way when a quick upload returned, hid
 * the new photo; the likes' first read turned a like just given back into "Like". Such a read is
 * not set: it is made again once the changes have settled, so the store ends on the newest state.
 */
export function changeGuard() {
  /** Changes begun, ever: a read that saw this move while on its way is older than one of them. */
  let begun = 0;
  const running = new Set<Promise<unknown>>();
  return {
    /** Runs one of the member's changes: its optimistic step (if any) and its call to the server. */
    async change<T>(run: () => Promise<T>): Promise<T> {
      begun += 1;
      const change = run();
      running.add(change);
      try {
        return await change;
      } finally {
        running.delete(change);
      }
    },

    /** Reads and sets the store; read again, after the changes, when a change began meanwhile. */
    async read<T>(fetch: () => Promise<T>, set: (answer: T) => void): Promise<T> {
      for (;;) {
        // A read while a change runs may or may not see it: it waits for the change instead.
        if (running.size > 0) {
          await Promise.allSettled([...running]);
          continue;
        }
        const before = begun;
        const answer = await fetch();
        if (begun === before) {
          set(answer);
          return answer;
        }
      }
    },
  };
}
