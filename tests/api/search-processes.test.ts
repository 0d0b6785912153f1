/**
 * The search's shared lists and cards on two runtime processes (issue 24, listing-cache.ts): a
 * change made through runtime B (a name, invisible mode, a suspension by staff written straight in
 * the database as the CLI or another machine would) is honoured by a search on runtime A once the
 * bus has delivered the change's trigger event (migration 2026-11-27-0300), well within the five
 * seconds a list is otherwise kept. Runs when DATABASE_URL is set (the processes share one
 * PostgreSQL schema).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createDb, type Db } from '../../src/server/db/index.ts';
import { suspendMember } from '../../src/server/services/suspension.ts';
import { Client, activeMember } from '../support/accounts.ts';
import { useTwoProcesses } from '../support/serve-process.ts';
import { until } from '../support/sse.ts';

const url = process.env.DATABASE_URL;

/**
 * How long a change may take to show on the other runtime here (ms, chosen): the bus delivers in
 * about a millisecond; a list is kept 5 s (LIST_TTL_MS), so a change heard only when the list
 * expires fails this.
 */
const DELIVERED_WITHIN_MS = 2_500;

describe.skipIf(!url)('the shared lists and cards on two runtimes', () => {
  const { view, a, b, schema } = useTwoProcesses('search');
  let db: Db;
  beforeAll(() => {
    db = createDb({ url: url!, schema });
  });
  afterAll(async () => {
    await db?.close();
  });

  test('a change on B shows in the next searches on A, for a visitor and a member', async () => {
    const velvet = (name: string) => activeMember(view(a), 'velvet', { name, gender: 'female', sexuality: 'bi', country: 'GB', region: null });
    const [vera, wanda, xena, yara] = [await velvet('Vera'), await velvet('Wanda'), await velvet('Xena'), await velvet('Yara')];
    const idOf = async (m: { client: Client }) => (await m.client.user()).profile.id as number;
    const [wandaId, xenaId, yaraId] = [await idOf(wanda), await idOf(xena), await idOf(yara)];
    const visitor = new Client(view(a), 'velvet');
    const cards = async (c: Client) => {
      const res = await c.get('/api/members.php?gender=female&country=GB');
      expect(res.status).toBe(200);
      return res.json().profiles as { id: number; name: string }[];
    };
    for (const c of [visitor, vera.client]) expect((await cards(c)).map((x) => x.id)).toEqual(expect.arrayContaining([wandaId, xenaId, yaraId]));

    // On B: Wanda renames herself, Xena goes invisible; Yara is suspended by another process.
    const onB = async (m: { client: Client; email: string }) => {
      const c = new Client(view(b), 'velvet');
      expect((await c.login(m.email)).status).toBe(200);
      return c;
    };
    expect((await (await onB(wanda)).put('/api/profile.php', { name: 'Wendy' })).status).toBe(200);
    expect((await (await onB(xena)).put('/api/user.php', { invisible: true })).status).toBe(200);
    const yaraUser = (await yara.client.user()).id as number;
    await db.db.transaction().execute((trx) => suspendMember(trx, yaraUser));

    for (const c of [visitor, vera.client]) {
      await until(
        'the changes made on B in a search on A',
        async () => {
          const now = await cards(c);
          return now.find((x) => x.id === wandaId)?.name === 'Wendy' && !now.some((x) => x.id === xenaId || x.id === yaraId);
        },
        DELIVERED_WITHIN_MS,
      );
    }
  }, 60_000);
});
