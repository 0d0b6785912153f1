import { describe, expect, it } from 'vitest';
import { changeGuard } from '../../src/stores/api.ts';

/** A call whose answer the test gives when it wants. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe("a store's reads behind the member's own changes", () => {
  it('a read begun before a change and answered after it is not set: it is read again, after the change', async () => {
    const guard = changeGuard();
    let server = ['old'];
    const set: string[][] = [];
    const first = deferred<string[]>();
    const answers = [first.promise];
    const reading = guard.read(() => answers.shift() ?? Promise.resolve([...server]), (answer) => set.push(answer));
    const change = deferred<string[]>();
    const changing = guard.change(async () => {
      const answer = await change.promise;
      server = answer;
      set.push(answer);
      return answer;
    });
    // The old list arrives while the change is still on its way, then the change's answer.
    first.resolve(['old']);
    change.resolve(['old', 'new']);
    await changing;
    expect(await reading).toEqual(['old', 'new']);
    expect(set).toEqual([['old', 'new'], ['old', 'new']]);
  });

  it('a read with no change meanwhile is set as it came', async () => {
    const guard = changeGuard();
    const set: number[] = [];
    expect(await guard.read(async () => 1, (n) => set.push(n))).toBe(1);
    await guard.change(async () => undefined);
    expect(await guard.read(async () => 2, (n) => set.push(n))).toBe(2);
    expect(set).toEqual([1, 2]);
  });

  it('a failed change lets the read go on', async () => {
    const guard = changeGuard();
    const failing = guard.change(async () => {
      throw new Error('refused');
    });
    await expect(failing).rejects.toThrow('refused');
    expect(await guard.read(async () => 'fresh', () => undefined)).toBe('fresh');
  });
});
