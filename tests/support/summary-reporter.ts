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
    console.log(`browser: ${this.passed} passed, ${this.failed} failed, ${this.skipped} skipped`);
  }
}
