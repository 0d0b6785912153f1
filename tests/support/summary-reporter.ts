import { writeFileSync } from 'node:fs';
import type { Reporter, TestCase, TestResult } from '@playwright/test/reporter';

/** Prints the plain closing line "N passed, N failed" that CI reads. */
export default class SummaryReporter implements Reporter {
  passed = 0;
  failed = 0;
  skipped = 0;
  onTestEnd(_test: TestCase, result: TestResult) {
    if (result.status === 'passed') this.passed += 1;
    else if (result.status === 'skipped') this.skipped += 1;
    else this.failed += 1;
  }
  onEnd() {
    const counts = { passed: this.passed, failed: this.failed, skipped: this.skipped };
    // npm test adds these to its closing line; run alone, Playwright prints them itself.
    if (process.env.SUMMARY_FILE) writeFileSync(process.env.SUMMARY_FILE, JSON.stringify(counts));
    else console.log(`browser: ${this.passed} passed, ${this.failed} failed, ${this.skipped} skipped`);
  }
}
