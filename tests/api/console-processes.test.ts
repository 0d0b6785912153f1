/**
 * The console over two runtime processes on one PostgreSQL database (issue 22): a photo decision
 * and a suspension made through the console of one process show on the other at once (its
 * session cache is told by NOTIFY, its members' event streams by the bus). Runs when
 * DATABASE_URL is set.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { TestRuntime } from '../support/runtime.ts';
import { apiError } from '../support/accounts.ts';
import { staffLogin } from '../support/console.ts';
import { screeningMember, uploadPhoto, type Member } from '../support/moderation.ts';
import { useTwoProcesses } from '../support/serve-process.ts';
import { openEvents, until } from '../support/sse.ts';
import { createDb, type Db } from '../../src/server/db/index.ts';
import { createConsoleService } from '../../src/server/services/console.ts';
import { createLimits } from '../../src/server/limits.ts';

const url = process.env.DATABASE_URL;

describe.skipIf(!url)('the console over two runtime processes on one PostgreSQL database', () => {
  const { view, a, b, schema } = useTwoProcesses('console-two');
  let db: Db;
  /** The same browser (its cookies) talking to process B. */
  const onB = (m: Member): Member => {
    const client = m.client.clone();
    (client as { rt: TestRuntime }).rt = view(b);
    return { ...m, client } as Member;
  };
  /** A moderator logged in on the console of process A (added as `sitegen staff add` would). */
  const moderatorOnA = () => staffLogin(view(a), 'moderator', null, createConsoleService({ db: db.db, limits: createLimits(null), production: false }));

  beforeAll(() => {
    db = createDb({ url, schema });
  });
  afterAll(async () => {
    await db?.close();
  });

  test('a photo approved on A: the owner\'s tab on B hears it and another member on B sees the photo', async () => {
    const anna = await screeningMember(view(a), 'female');
    const bob = onB(await screeningMember(view(a), 'male'));
    const photo = (await uploadPhoto(anna.client)).json().photos[0];
    const count = async () => (await bob.client.get(`/api/member.php?id=${anna.profileId}`)).json().profile.photo_count;
    expect(await count()).toBe(0);
    const tab = await openEvents(onB(anna).client);
    await until('the stream on B is ready', () => tab.events.some((e) => e.type === 'ready'));

    const mod = await moderatorOnA();
    expect((await mod.client.post(`/api/console/photos/${photo.id}`, { status: 'active' })).status).toBe(200);
    expect((await until('B hears the decision', () => tab.events.find((e) => e.type === 'photos'))).data).toEqual({ photo_id: photo.id });
    expect(await count()).toBe(1);
    tab.close();
  });

  test('a member suspended on A: their stream on B ends and B answers their requests with the ban page; lifted on A, B lets them log in again', async () => {
    const anna = onB(await screeningMember(view(a), 'female'));
    const bob = onB(await screeningMember(view(a), 'male'));
    // Bob's tab is open on B, and B keeps his session in its cache (read again after the other
    // members' changes settled: a look-up that overlaps another change is not kept).
    const tab = await openEvents(bob.client);
    await until('the stream on B is ready', () => tab.events.some((e) => e.type === 'ready'));
    for (let i = 0; i < 3; i++) expect((await bob.client.get('/api/user.php')).json().user.id).toBe(bob.userId);
    const ended = new Promise<void>((resolve) => tab.res.on('end', () => resolve()));

    const mod = await moderatorOnA();
    expect((await mod.client.post(`/api/console/members/${bob.userId}/suspend`, { reason: 'Asks members for money' })).status).toBe(200);
    await until('B\'s stream hears it', () => tab.events.some((e) => e.type === 'suspended'));
    await ended;
    const res = await until('B answers with the ban page', async () => {
      const r = await bob.client.get('/api/user.php');
      return r.status === 403 ? r : undefined;
    });
    expect([apiError(res).code, res.json().location]).toEqual(['account_suspended', '/pages/ban']);
    expect((await bob.client.get('/members')).headers.location).toBe('/pages/ban');
    expect((await anna.client.get(`/api/member.php?id=${bob.profileId}`)).status).toBe(404);

    expect((await mod.client.post(`/api/console/members/${bob.userId}/unsuspend`, { reason: 'Objection granted' })).status).toBe(200);
    await until('B forgets the stopped session', async () => ((await bob.client.get('/api/user.php')).status === 200 ? true : undefined));
    expect((await bob.client.get('/api/user.php')).json().user).toBeNull();
    expect((await anna.client.get(`/api/member.php?id=${bob.profileId}`)).status).toBe(200);
  });
});
