/**
 * TRUST_PROXY (README "Configuration by environment"): a hop count or the proxies' addresses, read
 * once at start; a value the runtime cannot use stops it with a message naming the mistake.
 */
import { describe, expect, it } from 'vitest';
import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';
import { configFromEnv } from '../../src/server/config.ts';
import { fromTrustedProxy, proxyTrust, TrustProxyError } from '../../src/server/http/proxy.ts';
import { sitegen } from '../support/cli.ts';

const trustProxy = (value: string | undefined) => configFromEnv(value === undefined ? {} : { TRUST_PROXY: value }).trustProxy;

/** The visitor's address as Fastify takes it (request.ip): the last address proxy-addr keeps. */
function visitor(setting: ReturnType<typeof trustProxy>, remoteAddress: string, forwardedFor?: string): string {
  const req = { socket: { remoteAddress }, headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor } } as unknown as IncomingMessage;
  const trust = proxyTrust(setting);
  return proxyAddr.all(req, trust === false ? () => false : trust).at(-1)!;
}

describe('TRUST_PROXY', () => {
  it('is off when unset, empty, 0 or false', () => {
    for (const value of [undefined, '', ' ', '0', 'false']) expect(trustProxy(value), String(value)).toBe(false);
  });

  it('takes a hop count: 1 is one proxy (nginx) in front', () => {
    expect(trustProxy('1')).toBe(1);
    expect(trustProxy(' 2 ')).toBe(2);
  });

  it('takes the proxies\' addresses and CIDR ranges, comma separated, and proxy-addr\'s names', () => {
    expect(trustProxy('10.0.0.0/8, 192.168.1.7')).toEqual(['10.0.0.0/8', '192.168.1.7']);
    expect(trustProxy('loopback,fd00::/8')).toEqual(['loopback', 'fd00::/8']);
  });

  it('refuses true and what is no address, naming the mistake', () => {
    expect(() => trustProxy('true')).toThrow(TrustProxyError);
    expect(() => trustProxy('true')).toThrow(/TRUST_PROXY=true would take the address a client writes itself/);
    expect(() => trustProxy('yes')).toThrow(/TRUST_PROXY=yes: "yes" is not an address/);
    expect(() => trustProxy('10.0.0.0/33')).toThrow(/"10\.0\.0\.0\/33" is not an address/);
    expect(() => trustProxy('10.0.0.1,')).toThrow(/TRUST_PROXY=10\.0\.0\.1,: an empty entry/);
    expect(() => trustProxy('1000')).toThrow(/at most 32 proxies/);
    expect(() => trustProxy('-1')).toThrow(TrustProxyError);
  });

  it('makes the visitor the nearest hop that is not a trusted proxy, whatever the client wrote first', () => {
    // nginx appends the address it saw after what the client wrote.
    expect(visitor(1, '127.0.0.1', '6.6.6.6, 203.0.113.9')).toBe('203.0.113.9');
    expect(visitor(1, '127.0.0.1')).toBe('127.0.0.1');
    expect(visitor(2, '127.0.0.1', '6.6.6.6, 203.0.113.9, 10.0.0.2')).toBe('203.0.113.9');
    expect(visitor(['loopback', '10.0.0.0/8'], '::ffff:127.0.0.1', '6.6.6.6, 203.0.113.9, 10.1.2.3')).toBe('203.0.113.9');
    // A peer that is not a trusted proxy is the visitor, whatever it sends.
    expect(visitor(['10.0.0.0/8'], '127.0.0.1', '6.6.6.6')).toBe('127.0.0.1');
    expect(visitor(false, '127.0.0.1', '6.6.6.6')).toBe('127.0.0.1');
  });

  it('believes a proxy\'s other headers only when the socket peer is a trusted proxy', () => {
    expect(fromTrustedProxy(proxyTrust(1), '127.0.0.1')).toBe(true);
    expect(fromTrustedProxy(proxyTrust(['10.0.0.0/8']), '10.4.4.4')).toBe(true);
    expect(fromTrustedProxy(proxyTrust(['10.0.0.0/8']), '127.0.0.1')).toBe(false);
    expect(fromTrustedProxy(proxyTrust(false), '127.0.0.1')).toBe(false);
    expect(fromTrustedProxy(proxyTrust(1), undefined)).toBe(false);
  });

  it('stops the CLI with the message, not a stack trace', async () => {
    const run = await sitegen(['db', 'migrate'], { TRUST_PROXY: 'true' });
    expect(run.code).toBe(1);
    expect(run.stderr.trim()).toBe(
      'sitegen: TRUST_PROXY=true would take the address a client writes itself in X-Forwarded-For: give the number of proxies in front (1 for one nginx) or their addresses (e.g. 10.0.0.0/8)',
    );
  });
});
