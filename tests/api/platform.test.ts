import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { engines, hostFetch, startTestRuntime, type TestRuntime } from '../support/runtime.ts';

describe.each(engines())('platform API on %s', (engine) => {
  let rt: TestRuntime;
  beforeAll(async () => {
    rt = await startTestRuntime(engine);
  });
  afterAll(async () => {
    await rt?.close();
  });

  test('each brand answers its own settings', async () => {
    const nl = await (await hostFetch(rt, 'spetter', '/api/settings.php')).json();
    const velvet = await (await hostFetch(rt, 'velvet', '/api/settings.php')).json();
    expect(nl.settings.domain).toBe('spetter.nl');
    expect(nl.settings.domain_language).toBe('nl');
    expect(velvet.settings.domain).toBe('velvetnights.com');
    expect(velvet.settings.niche).toBe(6);
  });
});
