/**
 * The console's roles (issue 22), declared once in src/contract/console.ts: what each role may do,
 * and the brand scope of a staff member.
 */
import { expect, test } from 'vitest';
import { PERMISSIONS, STAFF_ROLES, may, type Permission } from '../../src/contract/console.ts';
import { staffCookieName } from '../../src/server/services/console.ts';
import { inScope } from '../../src/server/services/brand-scope.ts';
import { sessionCookieName } from '../../src/server/services/sessions.ts';
import { CONSOLE_ROUTES } from '../../src/server/console/routes.ts';

const allowed = (permission: Permission) => STAFF_ROLES.filter((role) => may(role, permission));

test('owner may do everything; admin everything but staff', () => {
  for (const permission of Object.keys(PERMISSIONS) as Permission[]) {
    expect(may('owner', permission), permission).toBe(true);
    expect(may('admin', permission), permission).toBe(permission !== 'staff');
  }
});

test('moderator, support, finance and marketer: each only what the issues give them', () => {
  expect(allowed('members.suspend')).toEqual(['owner', 'admin', 'moderator']);
  expect(allowed('members.credits')).toEqual(['owner', 'admin', 'support']);
  expect(allowed('members.payments')).toEqual(['owner', 'admin', 'support', 'finance']);
  expect(allowed('members.directdebit')).toEqual(['owner', 'admin', 'finance']);
  expect(allowed('audit')).toEqual(['owner', 'admin']);
  expect(allowed('members.delete')).toEqual(['owner', 'admin']);
  expect(allowed('staff')).toEqual(['owner']);
  expect(allowed('members.read')).toEqual(STAFF_ROLES.filter((role) => role !== 'marketer'));
  // The marketer reads figures, never a member (issue 23).
  expect(allowed('sources')).toEqual(['owner', 'admin', 'finance', 'marketer']);
  expect(allowed('experiments')).toEqual(['owner', 'admin', 'marketer']);
  expect(allowed('self')).toEqual([...STAFF_ROLES]);
});

test('a staff member of every brand sees every brand; a scoped one only theirs', () => {
  expect(inScope({ brands: null }, 'spetter')).toBe(true);
  expect(inScope({ brands: ['spetter'] }, 'spetter')).toBe(true);
  expect(inScope({ brands: ['spetter'] }, 'velvet')).toBe(false);
  expect(inScope({ brands: [] }, 'spetter')).toBe(false);
});

test('every console route names a declared permission (or is public) and says whether it is brand-scoped', () => {
  const seen = new Set<string>();
  for (const route of CONSOLE_ROUTES) {
    expect(route.roles === 'public' || route.roles in PERMISSIONS, route.path).toBe(true);
    expect(typeof route.scoped).toBe('boolean');
    const key = `${route.method} ${route.path}`;
    expect(seen.has(key), key).toBe(false);
    seen.add(key);
    // Only login and enrolment are open to callers without a staff session.
    if (route.roles === 'public') expect(['login', 'enrol', 'enrol/password']).toContain(route.path);
  }
});

test("the staff cookie has a name of its own, __Host- in production, never the member's", () => {
  expect(staffCookieName(true)).toBe('__Host-staff');
  expect(staffCookieName(false)).toBe('staff');
  for (const production of [true, false]) expect(staffCookieName(production)).not.toBe(sessionCookieName(production));
});
