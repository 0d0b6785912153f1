import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request a receiver got: its raw path and query as sent. */
export interface Received {
  url: string;
  method: string;
}

/**
 * A local HTTP server standing for an affiliate network's postback endpoint: it records every
 * request as sent and answers with the status `answer` gives (200 unless told otherwise).
 */
export async function startReceiver(answer: (request: Received) => number = () => 200): Promise<{ base: string; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const request = { url: req.url ?? '', method: req.method ?? '' };
    received.push(request);
    res.writeHead(answer(request), { 'content-type': 'text/plain' }).end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
