// PLACEHOLDER (memory only) until the event bus module lands; replace this whole file.
export interface EventBus {
  publish(topic: string, event: object): Promise<void>;
  subscribe(topic: string, handler: (event: object) => void): () => void;
  ready(): Promise<void>;
  close(): Promise<void>;
}
export function createMemoryBus(): EventBus {
  const handlers = new Map<string, Set<(event: object) => void>>();
  return {
    async publish(topic, event) {
      for (const h of handlers.get(topic) ?? []) h(event);
    },
    subscribe(topic, handler) {
      const set = handlers.get(topic) ?? new Set();
      set.add(handler);
      handlers.set(topic, set);
      return () => set.delete(handler);
    },
    async ready() {},
    async close() {},
  };
}
export function createPostgresBus(_opts: { connectionString: string; channel: string; log?: (line: string) => void }): EventBus {
  return createMemoryBus();
}
