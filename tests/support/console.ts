import { Secret, TOTP } from 'otpauth';
import type { StaffRole } from '../../src/contract/console.ts';
import type { TestRuntime } from './runtime.ts';
import type { ConsoleService } from '../../src/server/services/console.ts';
import { Client, PASSWORD } from './accounts.ts';

let n = 0;

/** The TOTP code of a secret (base32) now, or `steps` of 30 s later (a code the server has not seen yet). */
export function totpCode(secret: string, steps = 0): string {
  return new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({ timestamp: Date.now() + steps * 30_000 });
}

/** A staff member added as `sitegen staff add --password-stdin` does: password set, TOTP on. */
export async function addStaff(rt: TestRuntime, role: StaffRole, brands: string[] | null = null) {
  return addStaffThrough(rt.services.console, role, brands);
}

/** addStaff through a console service of its own (the browser tests' runtime is another process). */
export async function addStaffThrough(console: ConsoleService, role: StaffRole, brands: string[] | null = null) {
  const email = `staff-${role}-${++n}-${process.pid}-${Date.now()}@example.com`;
  const added = await console.addStaff({ email, role, brands, password: PASSWORD });
  const secret = new URL(added.otpauth!).searchParams.get('secret')!;
  return { id: added.id, email, secret };
}

/** A browser on the console host. */
export const consoleClient = (rt: TestRuntime) => new Client(rt, 'console');

/** A staff member logged in on the console (email + password + TOTP code). */
export async function staffLogin(rt: TestRuntime, role: StaffRole, brands: string[] | null = null) {
  const staff = await addStaff(rt, role, brands);
  const client = consoleClient(rt);
  const res = await client.post('/api/console/login', { email: staff.email, password: PASSWORD, code: totpCode(staff.secret) });
  if (res.status !== 200) throw new Error(`console login answered ${res.status}: ${res.text}`);
  return { ...staff, client };
}
