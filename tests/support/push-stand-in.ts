import { Agent, createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { selfSignedCert } from './tls.ts';

/**
 * A stand-in push service over HTTPS with a certificate of its own: records what arrives, answers
 * 201 (410 under /gone/). A runtime in this process trusts it through `agent`; a runtime process
 * through NODE_EXTRA_CA_CERTS naming a file with `cert`.
 */
export function pushService() {
  const { key, cert } = selfSignedCert();
  const received: { path: string; headers: Record<string, unknown>; body: Buffer }[] = [];
  const server: Server = createServer({ key, cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
      res.statusCode = req.url?.startsWith('/gone/') ? 410 : 201;
      res.end();
    });
  });
  return {
    received,
    cert,
    agent: new Agent({ ca: cert }),
    async start() {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
    close() {
      server.close();
    },
  };
}
