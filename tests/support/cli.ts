import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { REPO } from './runtime.ts';

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `sitegen <args>` on Node 24 (process.execPath under vitest started through npx); `input` is its standard input. */
export function sitegen(args: string[], env: Record<string, string> = {}, input?: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(REPO, 'cli', 'main.ts'), ...args], {
      cwd: REPO,
      env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1', ...env },
      stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    if (input !== undefined) child.stdin!.end(input);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
