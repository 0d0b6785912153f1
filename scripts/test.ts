/**
 * npm test: makes sure Chromium is there, builds the tenants that need it, then runs the unit
 * and API suites (vitest) and the browser suites (Playwright), and prints one closing line.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
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
const results = mkdtempSync(join(tmpdir(), 'sitegen-results-'));
const unitJson = join(results, 'vitest.json');
const browserJson = join(results, 'playwright.json');
const unit = run(node, [join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${unitJson}`]);
const browser = run(node, [join(ROOT, 'node_modules/@playwright/test/cli.js'), 'test'], { SUMMARY_FILE: browserJson });

/** Counts of one suite from its result file; a suite that wrote none counts as one failure. */
function counts(file: string, pick: (json: any) => { passed: number; failed: number; skipped: number }) {
  try {
    return pick(JSON.parse(readFileSync(file, 'utf8')));
  } catch {
    return { passed: 0, failed: 1, skipped: 0 };
  }
}
const u = counts(unitJson, (j) => ({ passed: j.numPassedTests, failed: j.numFailedTests + (j.numRuntimeErrorTestSuites ?? 0), skipped: j.numPendingTests + (j.numTodoTests ?? 0) }));
const b = counts(browserJson, (j) => j);
const failed = [unit !== 0 && 'unit/API (vitest)', browser !== 0 && 'browser (Playwright)'].filter(Boolean);
console.log(`\nunit and API: ${u.passed} passed, ${u.failed} failed, ${u.skipped} skipped`);
console.log(`browser: ${b.passed} passed, ${b.failed} failed, ${b.skipped} skipped`);
console.log(failed.length ? `test: failed: ${failed.join(', ')}` : 'test: all suites passed');
// The closing line CI reads.
console.log(`tests: ${u.passed + b.passed} passed, ${u.failed + b.failed + (failed.length && !(u.failed + b.failed) ? 1 : 0)} failed, ${u.skipped + b.skipped} skipped`);
process.exit(failed.length ? 1 : 0);
