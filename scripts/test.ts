/**
 * npm test: makes sure Chromium is there, builds the tenants that need it, then runs the unit
 * and API suites (vitest) and the browser suites (Playwright), and prints one closing line.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const INSTALL = 'apt-get update && apt-get install -y chromium';

function run(command: string, args: string[], env: NodeJS.ProcessEnv = {}): number {
  const result = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit', env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1', ...env } });
  return result.status ?? 1;
}

function ensureChromium(): void {
  if (existsSync(CHROMIUM)) return;
  const isRoot = process.getuid?.() === 0;
  const hasApt = existsSync('/usr/bin/apt-get');
  if (isRoot && hasApt) {
    console.log(`test: ${CHROMIUM} is missing; installing Debian's chromium`);
    if (run('sh', ['-c', `${INSTALL} >/dev/null`]) === 0 && existsSync(CHROMIUM)) return;
  }
  console.error(`test: the browser tests need Chromium at ${CHROMIUM}. Install it with:\n  sudo sh -c '${INSTALL}'`);
  process.exit(1);
}

ensureChromium();
const node = process.execPath;
if (run(node, ['cli/main.ts', 'build', '--missing']) !== 0) process.exit(1);
const unit = run(node, [join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run']);
const browser = run(node, [join(ROOT, 'node_modules/@playwright/test/cli.js'), 'test']);
const failed = [unit !== 0 && 'unit/API (vitest)', browser !== 0 && 'browser (Playwright)'].filter(Boolean);
console.log(failed.length ? `test: failed: ${failed.join(', ')}` : 'test: all suites passed');
process.exit(failed.length ? 1 : 0);
