import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, test } from 'vitest';
import { createTurnGate } from '../../src/server/turn-gate.ts';

/**
 * turn-gate.ts: searches holding the event loop take a share of each turn. The clock is the
 * test's: each task "runs" for `cost` ms of it.
 */
function gated(budgetMs: number, cost: number) {
  let clock = 0;
  let turn = 0;
  const gate = createTurnGate(budgetMs, () => clock);
  const started: { name: string; turn: number }[] = [];
  const run = (name: string, fail = false) =>
    gate(async () => {
      started.push({ name, turn });
      clock += cost;
      if (fail) throw new Error(`${name} failed`);
      return name;
    });
  /** Counts `n` turns of the loop, each counted before the gate's own work of that turn. */
  const turns = async (n: number) => {
    for (let i = 0; i < n; i++) {
      await nextTurn();
      turn += 1;
    }
  };
  return { run, started, turns };
}

describe('the turn gate of searches', () => {
  test('a search alone runs at once, without waiting for a later turn', async () => {
    const { run, started } = gated(1, 0.3);
    expect(await run('alone')).toBe('alone');
    expect(started).toEqual([{ name: 'alone', turn: 0 }]);
  });

  test('searches that arrive together take the turn while its share lasts; the rest start in later turns, in arrival order', async () => {
    const { run, started, turns } = gated(1, 0.3);
    const counted = turns(3);
    const all = Promise.all(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'].map((name) => run(name)));
    await counted;
    expect(await all).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i']);
    // 0.3 ms each in a share of 1 ms: four a turn (started at 0, 0.3, 0.6, 0.9 ms of it).
    expect(started.map((s) => `${s.name}${s.turn}`)).toEqual(['a0', 'b0', 'c0', 'd0', 'e1', 'f1', 'g1', 'h1', 'i2']);
  });

  test('a failed search lets the next one start', async () => {
    const { run, started, turns } = gated(1, 2);
    const counted = turns(1);
    const failed = run('a', true);
    const next = run('b');
    await expect(failed).rejects.toThrow('a failed');
    await counted;
    expect(await next).toBe('b');
    expect(started.map((s) => `${s.name}${s.turn}`)).toEqual(['a0', 'b1']);
  });
});
