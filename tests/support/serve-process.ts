import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import { REPO, adminQuery, type TestRuntime } from './runtime.ts';

/** A free port on the loopback address, found by opening and closing a server on port 0. */
function freePort(): Promise<number> {
  return new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** Whether a runtime answers settings.php on the port yet. */
function answers(port: number): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const req = request({ host: '127.0.0.1', port, path: '/api/settings.php', headers: { host: `spetter.localhost:${port}` } }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on('error', () => resolve(false));
    req.end();
  });
}

/**
 * A `sitegen serve` process on a schema of the PostgreSQL of DATABASE_URL, on a free port, with
 * one trusted proxy hop (tests give each request its own X-Forwarded-For); resolved once it answers.
 */
export async function serveProcess(schema: string, dir: string): Promise<{ child: ChildProcess; port: number; output: () => string }> {
  const port = await freePort();
  const child = spawn(process.execPath, [join(REPO, 'cli', 'main.ts'), 'serve', '--port', String(port), '--host', '127.0.0.1'], {
    cwd: REPO,
    env: { ...process.env, DATABASE_SCHEMA: schema, DATA_DIR: dir, TRUST_PROXY: '1', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  const end = Date.now() + 60_000;
  while (!(await answers(port))) {
    if (Date.now() > end) throw new Error(`timed out waiting for the runtime on port ${port} (${output})`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { child, port, output: () => output };
}

/**
 * Two `sitegen serve` processes on one fresh schema of DATABASE_URL's PostgreSQL for a describe
 * block (started before its tests, stopped and the schema dropped after): `a` and `b` (filled in
 * once started), and `view(p)`, a TestRuntime-shaped view of a process for the API tests' helpers
 * (they speak to a runtime by port).
 */
export function useTwoProcesses(prefix: string) {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const dir = mkdtempSync(join(tmpdir(), `sitegen-${prefix}-`));
  const a = {} as Awaited<ReturnType<typeof serveProcess>>;
  const b = {} as Awaited<ReturnType<typeof serveProcess>>;
  const view = (p: { port: number }) => ({ port: p.port, url: `http://127.0.0.1:${p.port}`, outbox: join(dir, 'outbox'), tenantUrl: (id: string) => `http://${id}.localhost:${p.port}` }) as unknown as TestRuntime;
  beforeAll(async () => {
    await adminQuery(`create schema ${schema}`);
    Object.assign(a, await serveProcess(schema, dir));
    Object.assign(b, await serveProcess(schema, dir));
  }, 120_000);
  afterAll(async () => {
    for (const p of [a, b]) p.child?.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 300));
    await adminQuery(`drop schema if exists ${schema} cascade; drop schema if exists ${schema}_jobs cascade`);
    rmSync(dir, { recursive: true, force: true });
  });
  return { schema, dir, view, a, b };
}
