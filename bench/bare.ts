/**
 * The baseline of every throughput figure: bare node:http answering GET /<n> with n bytes of
 * HTML from memory, nothing else (no routing, no headers beyond the type and length). Started
 * by bench/lib.ts in a process of its own: `node bench/bare.ts <port>`.
 */
import { createServer } from 'node:http';

const bodies = new Map<number, Buffer>();
const port = Number(process.argv[2]);

createServer((req, res) => {
  const n = Number.parseInt((req.url ?? '/').slice(1), 10);
  if (!(n >= 0 && n <= 10_000_000)) {
    res.writeHead(404).end();
    return;
  }
  let body = bodies.get(n);
  if (!body) bodies.set(n, (body = Buffer.alloc(n, 'x')));
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': n });
  res.end(body);
}).listen(port, '127.0.0.1');
process.once('SIGTERM', () => process.exit(0));
