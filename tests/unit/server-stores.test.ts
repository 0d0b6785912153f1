import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, test } from 'vitest';

/**
 * On the server a store module is one instance for the whole process: a store written while one
 * member's page renders would be drawn into the next member's page (the first member's chats on
 * everyone's /chats). So every store refuses writes on the server (src/stores/browser-only.ts),
 * and islands seed stores in the browser only. These tests run in that server context: Node,
 * import.meta.env.SSR.
 */
const ROOT = join(import.meta.dirname, '..', '..');
const STORES = join(ROOT, 'src', 'stores');
const ISLANDS = join(ROOT, 'src', 'islands');
const GUARD = join(STORES, 'browser-only.ts');

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.(ts|tsx)$/.test(e.name))
    .map((e) => join(e.parentPath, e.name));
}

/** A file's code without its comments. */
function code(file: string): string {
  return readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\/|(^|[^:])\/\/.*$/gm, '$1');
}

interface AnyStore {
  get(): unknown;
  listen(listener: () => void): () => void;
  set(value: unknown): void;
  setKey?(key: string, value: unknown): void;
}

function isStore(value: unknown): value is AnyStore {
  return typeof value === 'object' && value !== null && ['get', 'listen', 'set'].every((k) => typeof (value as Record<string, unknown>)[k] === 'function');
}

const storeFiles = files(STORES).filter((f) => f !== GUARD);

describe('stores on the server', () => {
  test('every store is made by browser-only.ts: no store module or island makes one with nanostores itself', () => {
    const offenders = [...storeFiles, ...files(ISLANDS)].filter((f) => /import\s+(?!type\b)[^;]*from\s+['"]nanostores['"]/.test(code(f)));
    expect(offenders.map((f) => relative(ROOT, f))).toEqual([]);
    // A store another library makes (the router) is wrapped in browserOnly().
    const unwrapped = storeFiles.filter((f) => /=\s*(createRouter|persistentAtom|persistentMap|deepMap)\(/.test(code(f)));
    expect(unwrapped.map((f) => relative(ROOT, f))).toEqual([]);
  });

  test('every store of every store module refuses a write on the server and keeps its value', async () => {
    const { ServerStoreWrite } = await import('../../src/stores/browser-only.ts');
    let checked = 0;
    for (const file of storeFiles) {
      // Derived stores (computed) have no value of their own to write.
      const derived = new Set([...code(file).matchAll(/export const (\$\w+)\s*=\s*computed\(/g)].map((m) => m[1]));
      const module = (await import(file)) as Record<string, unknown>;
      for (const [name, store] of Object.entries(module)) {
        if (!isStore(store) || derived.has(name)) continue;
        const before = store.get();
        const where = `${relative(ROOT, file)}: ${name}`;
        expect(() => store.set({ member: 'someone else' }), where).toThrow(ServerStoreWrite);
        if (store.setKey) expect(() => store.setKey!('member', 'someone else'), where).toThrow(ServerStoreWrite);
        expect(store.get(), where).toBe(before);
        checked += 1;
      }
    }
    // The chat's, the user's, the likes'… (a module that stopped exporting its stores would pass unseen).
    expect(checked).toBeGreaterThanOrEqual(20);
  });

  test("the store actions that write refuse too, and the chat router does not follow an address on the server", async () => {
    const { ServerStoreWrite } = await import('../../src/stores/browser-only.ts');
    const { $chats, $chatRouter, setChats } = await import('../../src/stores/chat.ts');
    const { $user, setUser } = await import('../../src/stores/user.ts');
    const { markLiked, $liked } = await import('../../src/stores/likes.ts');
    expect(() => setChats({ chats: [], total_unread: 3 } as never)).toThrow(ServerStoreWrite);
    expect(() => setUser({ id: 1 } as never)).toThrow(ServerStoreWrite);
    expect(() => markLiked(7, true)).toThrow(ServerStoreWrite);
    expect(() => $chatRouter.open('/chats/5')).toThrow(ServerStoreWrite);
    expect([$chats.get(), $user.get(), $liked.get().size, $chatRouter.get()]).toEqual([null, null, 0, undefined]);
  });

  test('hydrateStore does nothing on the server: the island renders its props there', async () => {
    const { hydrateStore } = await import('../../src/stores/browser-only.ts');
    const { $user } = await import('../../src/stores/user.ts');
    hydrateStore($user, { id: 42 } as never);
    expect($user.get()).toBeNull();
  });
});
