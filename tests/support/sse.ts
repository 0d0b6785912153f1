import { request, type IncomingMessage } from 'node:http';
import type { Client } from './accounts.ts';

export interface StreamEvent {
  type: string;
  id: string | undefined;
  data: any;
}

/** Calls `each` with every server-sent event of a response as it arrives (also the bench's streams). */
export function onEvents(res: IncomingMessage, each: (event: StreamEvent) => void): void {
  let buffer = '';
  res.setEncoding('utf8');
  res.on('data', (chunk: string) => {
    buffer += chunk;
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const type = /^event: (.*)$/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)?.[1];
      const id = /^id: (.*)$/m.exec(block)?.[1];
      if (type) each({ type, id, data: data ? JSON.parse(data) : null });
    }
  });
}

/** Reads server-sent events from a response into a list, as they arrive. */
export function collectEvents(res: IncomingMessage): StreamEvent[] {
  const events: StreamEvent[] = [];
  onEvents(res, (e) => events.push(e));
  return events;
}

/**
 * Opens GET /api/events.php as the client's browser would (on the client's runtime, or the port
 * given); `path` another stream of the client's host (the console's /api/console/events).
 */
export async function openEvents(client: Client, opts: { port?: number; lastEventId?: string; path?: string } = {}) {
  const port = opts.port ?? client.rt.port;
  const res = await new Promise<IncomingMessage>((resolve, reject) => {
    const headers: Record<string, string> = { host: `${client.tenant}.localhost:${port}`, cookie: client.cookieHeader(), accept: 'text/event-stream', 'x-forwarded-for': client.ip };
    if (opts.lastEventId !== undefined) headers['last-event-id'] = opts.lastEventId;
    const req = request({ host: '127.0.0.1', port, path: opts.path ?? '/api/events.php', headers }, resolve);
    req.on('error', reject);
    req.end();
  });
  const events = collectEvents(res);
  return { res, events, close: () => res.destroy() };
}

/** Waits until `check` holds (polling every 20 ms), failing after `ms`. */
export async function until<T>(what: string, check: () => T | undefined | false | Promise<T | undefined | false>, ms = 5_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
