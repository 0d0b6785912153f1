/**
 * The console's staff page API (issue 22, owner only): list, add with a one-time enrolment link,
 * change a role and brands, remove; each audited with the owner who did it; an owner never changes
 * or removes themselves; bad input is a 4xx that changes nothing. The audit log names who acted.
 */
import { describe, expect, test } from 'vitest';
import { engines, type TestRuntime } from '../support/runtime.ts';
import { PASSWORD, apiError, useRuntime } from '../support/accounts.ts';
import { consoleClient, staffLogin } from '../support/console.ts';

const staffCount = async (rt: TestRuntime) => Number((await rt.db.db.selectFrom('staff').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

describe.each(engines())('the staff page API on %s', (engine) => {
  const rt = useRuntime(engine);

  test('an owner adds a moderator: the enrolment link sets the password; the entry names the owner', async () => {
    const owner = await staffLogin(rt(), 'owner');
    const email = `Nieuw-${Date.now()}@Example.com`;
    const res = await owner.client.post('/api/console/staff', { email, role: 'moderator', brands: ['spetter'] });
    expect(res.status).toBe(201);
    const { id, enrol_path } = res.json();
    expect(enrol_path).toMatch(/^\/console\/enrol\?token=/);
    const listed = (await owner.client.get('/api/console/staff')).json().staff.find((s: { id: number }) => s.id === id);
    expect(listed).toMatchObject({ email: email.toLowerCase(), role: 'moderator', brands: ['spetter'], totp_enabled: false });
    const token = new URL(enrol_path, 'http://x').searchParams.get('token');
    expect((await consoleClient(rt()).post('/api/console/enrol/password', { token, password: PASSWORD })).json()).toEqual({ email: email.toLowerCase() });
    const entries = (await owner.client.get('/api/console/audit?action=staff_add')).json().entries;
    expect(entries[0]).toMatchObject({ staff_id: owner.id, staff_email: owner.email, role: 'owner', object_type: 'staff', object_id: String(id) });
    expect(entries[0].ip).toBeTruthy();
  });

  test('bad input is refused with a message and adds nobody: an address taken, an unknown brand, a role that does not exist', async () => {
    const owner = await staffLogin(rt(), 'owner');
    const before = await staffCount(rt());
    const taken = await owner.client.post('/api/console/staff', { email: owner.email, role: 'admin', brands: null });
    expect([taken.status, apiError(taken).code, apiError(taken).field]).toEqual([409, 'console_staff_exists', 'email']);
    expect(apiError(taken).message).toMatch(/staff member already/);
    const brand = await owner.client.post('/api/console/staff', { email: `x-${Date.now()}@example.com`, role: 'admin', brands: ['nope'] });
    expect([brand.status, apiError(brand).field]).toEqual([400, 'brands']);
    const role = await owner.client.post('/api/console/staff', { email: `y-${Date.now()}@example.com`, role: 'king', brands: null });
    expect([role.status, apiError(role).field]).toEqual([400, 'role']);
    const email = await owner.client.post('/api/console/staff', { email: 'geen-adres', role: 'admin', brands: null });
    expect([email.status, apiError(email).field]).toEqual([400, 'email']);
    expect(await staffCount(rt())).toBe(before);
  });

  test('a role change and a removal end the staff member’s sessions at once; an owner cannot change or remove themselves', async () => {
    const owner = await staffLogin(rt(), 'owner');
    const target = await staffLogin(rt(), 'support', ['spetter']);
    expect((await owner.client.post(`/api/console/staff/${target.id}/role`, { role: 'moderator', brands: null })).status).toBe(200);
    expect((await target.client.get('/api/console/me')).status).toBe(401);
    expect((await owner.client.get('/api/console/staff')).json().staff.find((s: { id: number }) => s.id === target.id)).toMatchObject({ role: 'moderator', brands: null });
    const self = await owner.client.post(`/api/console/staff/${owner.id}/role`, { role: 'admin', brands: null });
    expect([self.status, apiError(self).code]).toEqual([409, 'console_staff_self']);
    expect((await owner.client.post(`/api/console/staff/${owner.id}/remove`)).status).toBe(409);

    const other = await staffLogin(rt(), 'finance');
    expect((await owner.client.post(`/api/console/staff/${other.id}/remove`)).status).toBe(200);
    expect((await other.client.get('/api/console/me')).status).toBe(401);
    expect((await owner.client.get('/api/console/staff')).json().staff.some((s: { id: number }) => s.id === other.id)).toBe(false);
    expect((await owner.client.post(`/api/console/staff/${other.id}/remove`)).status).toBe(404);
    const removal = (await owner.client.get('/api/console/audit?action=staff_remove')).json().entries[0];
    expect(removal).toMatchObject({ staff_id: owner.id, object_id: String(other.id) });
  });
});
