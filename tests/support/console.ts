import { Secret, TOTP } from 'otpauth';
import type { StaffRole } from '../../src/contract/console.ts';
import type { ConsoleService } from '../../src/server/services/console.ts';
import type { TestRuntime } from './runtime.ts';
import { Client, PASSWORD } from './accounts.ts';

let n = 0;

/** The TOTP code of a secret (base32) now, or `steps` of 30 s later (a code the server has not seen yet). */
export function totpCode(secret: string, steps = 0): string {
  return new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({ timestamp: Date.now() + steps * 30_000 });
}

/**
 * A staff member added as `sitegen staff add --password-stdin` does: password set, TOTP on; by the
 * runtime's console service, or another's (a runtime in another process has none here).
 */
export async function addStaff(rt: TestRuntime, role: StaffRole, brands: string[] | null = null, service: ConsoleService = rt.services.console) {
  const email = `staff-${role}-${++n}-${Date.now()}@example.com`;
  const added = await service.addStaff({ email, role, brands, password: PASSWORD });
  const secret = new URL(added.otpauth!).searchParams.get('secret')!;
  return { id: added.id, email, secret };
}

/** A browser on the console host. */
export const consoleClient = (rt: TestRuntime) => new Client(rt, 'console');

/** A staff member logged in on the console (email + password + TOTP code). */
export async function staffLogin(rt: TestRuntime, role: StaffRole, brands: string[] | null = null, service?: ConsoleService) {
  const staff = await addStaff(rt, role, brands, service);
  const client = consoleClient(rt);
  const res = await client.post('/api/console/login', { email: staff.email, password: PASSWORD, code: totpCode(staff.secret) });
  if (res.status !== 200) throw new Error(`console login answered ${res.status}: ${res.text}`);
  return { ...staff, client };
}
