import { describe, expect, it } from 'vitest';
import { readOrder } from '../../src/stores/api.ts';

/** A promise the test settles by hand: one request on its way. */
function pending<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe('a store\'s reads against the member\'s own changes', () => {
  it('keeps a read that overlapped no change', async () => {
    const order = readOrder();
    const kept: string[] = [];
    await order.change(async () => 'removed');
    await order.read(async () => 'after', (a) => kept.push(a));
    expect(kept).toEqual(['after']);
  });

  it('drops a read asked before a change and answered after it (the first read after a quick upload)', async () => {
    const order = readOrder();
    const kept: string[] = [];
    const answer = pending<string>();
    const read = order.read(() => answer.promise, (a) => kept.push(a));
    await order.change(async () => 'uploaded');
    answer.resolve('before the upload');
    expect(await read).toBe('before the upload');
    expect(kept).toEqual([]);
  });

  it('drops a read asked while a change is under way, even when it answers after the change', async () => {
    const order = readOrder();
    const kept: string[] = [];
    const removal = pending<void>();
    const change = order.change(() => removal.promise);
    const answer = pending<string>();
    const read = order.read(() => answer.promise, (a) => kept.push(a));
    removal.resolve();
    await change;
    answer.resolve('maybe still with the chat');
    await read;
    expect(kept).toEqual([]);
  });

  it('counts a failed change as a change, and reads cleanly after it', async () => {
    const order = readOrder();
    const kept: string[] = [];
    await expect(order.change(async () => Promise.reject(new Error('503')))).rejects.toThrow('503');
    await order.read(async () => 'reloaded', (a) => kept.push(a));
    expect(kept).toEqual(['reloaded']);
  });
});
