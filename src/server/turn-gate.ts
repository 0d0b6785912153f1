/**
 * A share of each turn of the event loop for work that holds the loop while it runs (a search on
 * SQLite is synchronous work with no real wait in it): tasks start at once while the turn's first
 * task started less than `budgetMs` ago, the rest wait in arrival order and start in a later
 * turn, one when a turn begins and the next each time one ends within that turn's budget. So
 * fifty searches that arrive together never hold every other request of every brand behind them
 * (bench/README.md "No stall"), and a search alone runs without waiting a turn (bench/README.md
 * "The search's request path").
 */
export function createTurnGate(budgetMs: number, now: () => number = () => performance.now()) {
  /** When this turn's first task started; null: none has started since the last turn began. */
  let turnStart: number | null = null;
  const waiting: (() => void)[] = [];

  /** Whether a task may start now; the first of a turn also asks for the turn's end (setImmediate: after this turn's I/O). */
  function open(): boolean {
    if (turnStart === null) {
      turnStart = now();
      setImmediate(endTurn);
      return true;
    }
    return now() - turnStart < budgetMs;
  }

  function endTurn(): void {
    turnStart = null;
    if (waiting.length > 0 && open()) waiting.shift()!();
  }

  return async function gate<T>(task: () => Promise<T>): Promise<T> {
    if (waiting.length > 0 || !open()) await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await task();
    } finally {
      if (waiting.length > 0 && open()) waiting.shift()!();
    }
  };
}
