/**
 * The login lockout under races (issue 20, finding 2): wrong passwords for one account sent all at
 * once, from as many addresses and over two runtime processes, get no more than
 * LOGIN_MAX_FAILURES password checks; the rest, and the right password after them, are refused as
 * locked without a check. A logged-in member's own password checks hold their limit the same way.
 */
import { beforeEach, describe, expect, test, vi } from 'vitest';
import { engines, type HostResponse } from '../support/runtime.ts';
import { Client, PASSWORD, activeMember, apiError, setCookies, signUp, useRuntime, userRow } from '../support/accounts.ts';
import { useTwoProcesses } from '../support/serve-process.ts';
import { LOCK_MINUTES, LOGIN_MAX_FAILURES, PASSWORD_CHECKS_PER_MEMBER } from '../../src/server/services/accounts.ts';

/** Every argon2 verification of the in-process runtimes (the price a guess costs and what it may learn). */
const argon = vi.hoisted(() => ({ checks: 0 }));
vi.mock('../../src/server/services/passwords.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/server/services/passwords.ts')>();
  return {
    ...real,
    verifyPassword: (password: string, phc: string) => {
      argon.checks += 1;
      return real.verifyPassword(password, phc);
    },
  };
});

const AT_ONCE = 40;
const answer = (res: HostResponse) => `${res.status} ${apiError(res).code}`;
const count = (answers: string[], which: string) => answers.filter((a) => a === which).length;

/** Locked answers say for how long: Retry-After within the lock. */
function expectLockedFor(res: HostResponse) {
  expect(answer(res)).toBe('429 login_locked');
  const seconds = Number(res.headers['retry-after']);
  expect(seconds).toBeGreaterThan(0);
  expect(seconds).toBeLessThanOrEqual(LOCK_MINUTES * 60);
}

describe.each(engines())('the login lockout under races on %s', (engine) => {
  const rt = useRuntime(engine);
  beforeEach(() => {
    argon.checks = 0;
  });

  test(`${AT_ONCE} wrong passwords at once from ${AT_ONCE} addresses: ${LOGIN_MAX_FAILURES} are checked, the rest are refused as locked, and so is the right password after them`, async () => {
    const { email } = await signUp(rt(), 'spetter');
    argon.checks = 0;
    // A browser (an address) of its own for each, so that the per-address limit does not answer first.
    const answers = await Promise.all(Array.from({ length: AT_ONCE }, (_, i) => new Client(rt(), 'spetter').login(email, `fout-${i}-wachtwoord`)));
    expect(argon.checks).toBe(LOGIN_MAX_FAILURES);
    const seen = answers.map(answer);
    // The check that reaches the limit answers locked, as when the attempts come one by one.
    expect(count(seen, '401 login_failed')).toBe(LOGIN_MAX_FAILURES - 1);
    expect(count(seen, '429 login_locked')).toBe(AT_ONCE - (LOGIN_MAX_FAILURES - 1));
    for (const res of answers) if (res.status === 429) expectLockedFor(res);

    const right = await new Client(rt(), 'spetter').login(email, PASSWORD);
    expectLockedFor(right);
    expect(setCookies(right)).toEqual([]);
    expect(argon.checks).toBe(LOGIN_MAX_FAILURES);
    const row = await userRow(rt(), 'spetter', email);
    expect(Date.parse(row!.locked_until!)).toBeGreaterThan(Date.now() + (LOCK_MINUTES - 1) * 60_000);
  });

  test('the right password among a crowd of wrong ones within the limit logs in and starts the count again', async () => {
    const { email } = await signUp(rt(), 'spetter');
    const wrong = await Promise.all(Array.from({ length: LOGIN_MAX_FAILURES - 2 }, (_, i) => new Client(rt(), 'spetter').login(email, `fout-${i}-wachtwoord`)));
    expect(wrong.map(answer)).toEqual(Array(LOGIN_MAX_FAILURES - 2).fill('401 login_failed'));
    expect((await new Client(rt(), 'spetter').login(email, PASSWORD)).status).toBe(200);
    expect((await userRow(rt(), 'spetter', email))!.failed_logins).toBe(0);
    // A full count of wrong ones again before the lock.
    for (let i = 1; i < LOGIN_MAX_FAILURES; i++) expect(answer(await new Client(rt(), 'spetter').login(email, `weer-${i}-fout`))).toBe('401 login_failed');
    expectLockedFor(await new Client(rt(), 'spetter').login(email, 'weer-fout'));
  });

  test(`${AT_ONCE} wrong passwords at once with a member's session: no more than ${PASSWORD_CHECKS_PER_MEMBER} are checked, and the right one is refused after them`, async () => {
    const { client, email } = await activeMember(rt(), 'spetter');
    argon.checks = 0;
    const change = (old: string) => client.post('/api/password.php', { old_password: old, password: 'nieuw-wachtwoord-1', password_repeat: 'nieuw-wachtwoord-1' });
    const answers = await Promise.all(Array.from({ length: AT_ONCE }, (_, i) => change(`fout-${i}-wachtwoord`)));
    expect(argon.checks).toBe(PASSWORD_CHECKS_PER_MEMBER);
    const seen = answers.map(answer);
    expect(count(seen, '400 password_old_wrong')).toBe(PASSWORD_CHECKS_PER_MEMBER);
    expect(count(seen, '429 too_many_requests')).toBe(AT_ONCE - PASSWORD_CHECKS_PER_MEMBER);

    // A guess that happens to be right is not checked either: the password stays the member's own.
    const right = await change(PASSWORD);
    expect(right.status).toBe(429);
    expect(argon.checks).toBe(PASSWORD_CHECKS_PER_MEMBER);
    expect((await new Client(rt(), 'spetter').login(email, PASSWORD)).status).toBe(200);
  });

  test('right passwords of a member do not use up the limit of wrong ones', async () => {
    const { client, email } = await activeMember(rt(), 'spetter');
    let current = PASSWORD;
    for (let i = 0; i < PASSWORD_CHECKS_PER_MEMBER + 2; i++) {
      const next = `nieuw-wachtwoord-${i}`;
      const res = await client.post('/api/password.php', { old_password: current, password: next, password_repeat: next });
      expect(res.status).toBe(200);
      current = next;
    }
    expect((await new Client(rt(), 'spetter').login(email, current)).status).toBe(200);
  });
});

const url = process.env.DATABASE_URL;

describe.skipIf(!url)('the login lockout over two runtime processes on one PostgreSQL database', () => {
  const { view, a, b } = useTwoProcesses('lockout');

  test(`${AT_ONCE} wrong passwords at once over both processes: ${LOGIN_MAX_FAILURES} are checked, the rest and the right password on either process are refused as locked`, async () => {
    const { email } = await signUp(view(a), 'spetter');
    // Half through each process, as a load balancer would, each from an address of its own.
    const answers = await Promise.all(Array.from({ length: AT_ONCE }, (_, i) => new Client(view(i % 2 ? b : a), 'spetter').login(email, `fout-${i}-wachtwoord`)));
    const seen = answers.map(answer);
    expect(count(seen, '401 login_failed')).toBe(LOGIN_MAX_FAILURES - 1);
    expect(count(seen, '429 login_locked')).toBe(AT_ONCE - (LOGIN_MAX_FAILURES - 1));
    for (const res of answers) if (res.status === 429) expectLockedFor(res);
    for (const p of [a, b]) {
      const right = await new Client(view(p), 'spetter').login(email, PASSWORD);
      expectLockedFor(right);
      expect(setCookies(right)).toEqual([]);
    }
  });
});
