/**
 * Password hashing (src/server/services/passwords.ts): argon2id PHC strings with OWASP's
 * parameters, a fresh salt per hash, constant-shape verification.
 */
import { describe, expect, it } from 'vitest';
import { burnPasswordCheck, hashPassword, verifyPassword } from '../../src/server/services/passwords.ts';

const PHC = /^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/;

describe('passwords', () => {
  it('hashes to a PHC argon2id string (v=19, 19 MiB, 2 passes, 1 lane, 16-byte salt, 32-byte hash)', async () => {
    const hash = await hashPassword('geheim-wachtwoord-1');
    expect(hash).toMatch(PHC);
    expect(hash).not.toContain('geheim');
  });

  it('verifies the right password and refuses others', async () => {
    const hash = await hashPassword('geheim-wachtwoord-1');
    expect(await verifyPassword('geheim-wachtwoord-1', hash)).toBe(true);
    expect(await verifyPassword('geheim-wachtwoord-2', hash)).toBe(false);
    expect(await verifyPassword('Geheim-wachtwoord-1', hash)).toBe(false);
    expect(await verifyPassword('', hash)).toBe(false);
  });

  it('two hashes of one password differ (random salt) and both verify', async () => {
    const [a, b] = await Promise.all([hashPassword('zelfde-wachtwoord'), hashPassword('zelfde-wachtwoord')]);
    expect(a).not.toBe(b);
    expect(a.split('$')[4]).not.toBe(b.split('$')[4]);
    expect(await verifyPassword('zelfde-wachtwoord', a)).toBe(true);
    expect(await verifyPassword('zelfde-wachtwoord', b)).toBe(true);
  });

  it('handles non-ASCII passwords byte for byte', async () => {
    const hash = await hashPassword('wachtwoord-ëïö-😀');
    expect(await verifyPassword('wachtwoord-ëïö-😀', hash)).toBe(true);
    expect(await verifyPassword('wachtwoord-eio-😀', hash)).toBe(false);
  });

  it('a stored value that is no argon2id PHC string never verifies', async () => {
    for (const stored of ['!', '', 'geheim-wachtwoord-1', '$argon2i$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0c2FsdA$aGFzaA', '$2b$12$abcdefghijklmnopqrstuv']) {
      expect(await verifyPassword('geheim-wachtwoord-1', stored), stored).toBe(false);
    }
  });

  it('a hash with one character changed does not verify', async () => {
    const hash = await hashPassword('geheim-wachtwoord-1');
    const last = hash.at(-2) === 'A' ? 'B' : 'A';
    const tampered = `${hash.slice(0, -2)}${last}${hash.at(-1)}`;
    expect(await verifyPassword('geheim-wachtwoord-1', tampered)).toBe(false);
  });

  it('burnPasswordCheck spends the time of a check and answers nothing', async () => {
    await expect(burnPasswordCheck('wat-dan-ook')).resolves.toBeUndefined();
  });
});
