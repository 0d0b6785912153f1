/**
 * The event bus and the background jobs (DESIGN §9) on their own: in memory for one process, and
 * on PostgreSQL (LISTEN/NOTIFY, pg-boss) for many, when DATABASE_URL is set.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { Kysely, PostgresDialect } from 'kysely';
import { afterAll, afterEach, describe, expect, test, vi } from 'vitest';
import { createMemoryBus, createPostgresBus, MAX_EVENT_BYTES, type EventBus } from '../../src/server/bus.ts';
import { createLocalJobs, createPgBossJobs, cronEvery, type Jobs } from '../../src/server/jobs.ts';
import { adminQuery } from '../support/runtime.ts';

const url = process.env.DATABASE_URL;

async function until(what: string, check: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the bus in one process', () => {
  test('delivers an event to each subscriber of its topic only, until it unsubscribes', async () => {
    const bus = createMemoryBus();
    const heard: string[] = [];
    const stop = bus.subscribe('user:1', (e) => heard.push(`a:${JSON.stringify(e)}`));
    bus.subscribe('user:1', (e) => heard.push(`b:${JSON.stringify(e)}`));
    bus.subscribe('user:2', () => heard.push('wrong topic'));
    await bus.publish('user:1', { type: 'user' });
    stop();
    await bus.publish('user:1', { type: 'credits', balance: 3 });
    expect(heard).toEqual(['a:{"type":"user"}', 'b:{"type":"user"}', 'b:{"type":"credits","balance":3}']);
  });

  test('a subscriber that throws does not keep the event from the others', async () => {
    const bus = createMemoryBus();
    const heard: object[] = [];
    bus.subscribe('t', () => {
      throw new Error('closed stream');
    });
    bus.subscribe('t', (e) => heard.push(e));
    await bus.publish('t', { id: 1 });
    expect(heard).toEqual([{ id: 1 }]);
  });

  test('events published with a transaction are heard once it has committed, when the caller says so', async () => {
    const bus = createMemoryBus();
    const heard: object[] = [];
    bus.subscribe('user:1', (e) => heard.push(e));
    const committed = await bus.within({} as Kysely<Record<string, never>>, [{ topic: 'user:1', event: { n: 1 } }, { topic: 'user:2', event: { n: 2 } }]);
    expect(heard).toEqual([]);
    committed();
    expect(heard).toEqual([{ n: 1 }]);
  });
});

describe('jobs in one process', () => {
  test('a task runs at start, then on its interval, and never twice at once', async () => {
    vi.useFakeTimers();
    try {
      const jobs = createLocalJobs({ log: () => {} });
      let runs = 0;
      let release = () => {};
      jobs.every('slow', 1, async () => {
        runs += 1;
        await new Promise<void>((r) => (release = r));
      });
      await jobs.start();
      expect(runs).toBe(1);
      // Three intervals pass while the first round still runs: no second round beside it.
      await vi.advanceTimersByTimeAsync(3 * 60_000);
      expect(runs).toBe(1);
      release();
      await vi.advanceTimersByTimeAsync(60_000);
      expect(runs).toBe(2);
      release();
      await jobs.stop();
      await vi.advanceTimersByTimeAsync(5 * 60_000);
      expect(runs).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });

  test('a failing task is logged and the process goes on', async () => {
    const lines: string[] = [];
    const jobs = createLocalJobs({ log: (line) => lines.push(line) });
    jobs.every('broken', 5, async () => {
      throw new Error('no disk');
    });
    await jobs.start();
    await jobs.stop();
    expect(lines).toEqual(['job broken failed: no disk']);
  });

  test('intervals are whole minutes from 1 to 60', () => {
    expect(cronEvery(1)).toBe('*/1 * * * *');
    expect(cronEvery(15)).toBe('*/15 * * * *');
    expect(cronEvery(60)).toBe('0 * * * *');
    expect(() => cronEvery(0)).toThrow();
    expect(() => cronEvery(90)).toThrow();
    expect(() => createLocalJobs({}).every('x', 1.5, async () => {})).toThrow();
  });
});

describe.skipIf(!url)('on PostgreSQL, across processes', () => {
  const tag = `t_${randomBytes(5).toString('hex')}`;
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  const open: { close(): Promise<void> }[] = [];
  function bus(channel = `${tag}_events`): EventBus {
    const b = createPostgresBus({ connectionString: url!, pool, channel, applicationName: `${tag}:bus`, log: () => {} });
    open.push(b);
    return b;
  }
  async function terminateListeners(): Promise<number> {
    const { rows } = await pool.query<{ n: number }>(
      'select count(pg_terminate_backend(pid))::int as n from pg_stat_activity where application_name = $1',
      [`${tag}:bus`],
    );
    return rows[0]!.n;
  }
  afterEach(async () => {
    for (const b of open.splice(0)) await b.close();
  });
  afterAll(async () => {
    await pool.end();
  });

  test('an event published on one bus reaches the other once, and its own subscribers once', async () => {
    const [a, b] = [bus(), bus()];
    await Promise.all([a.ready(), b.ready()]);
    const onA: object[] = [];
    const onB: object[] = [];
    a.subscribe('chat:7', (e) => onA.push(e));
    b.subscribe('chat:7', (e) => onB.push(e));
    await a.publish('chat:7', { message: 41 });
    await until('B hears it', () => onB.length === 1);
    await pause(200);
    expect(onA).toEqual([{ message: 41 }]);
    expect(onB).toEqual([{ message: 41 }]);
  });

  test('a bus on another channel (another schema) hears nothing', async () => {
    const [a, other] = [bus(), bus(`${tag}_other`)];
    await Promise.all([a.ready(), other.ready()]);
    const heard: object[] = [];
    other.subscribe('chat:7', (e) => heard.push(e));
    await a.publish('chat:7', { message: 1 });
    await pause(300);
    expect(heard).toEqual([]);
  });

  test('delivery resumes by itself after the listening connection is terminated', async () => {
    const [a, b] = [bus(), bus()];
    await Promise.all([a.ready(), b.ready()]);
    const onB: object[] = [];
    b.subscribe('user:3', (e) => onB.push(e));
    expect(await terminateListeners()).toBe(2);
    let n = 0;
    await until('B hears again', () => {
      void a.publish('user:3', { n: ++n });
      return onB.length > 0;
    });
  });

  test('events published with a transaction reach the other bus at its commit, and never for a transaction rolled back', async () => {
    const db = new Kysely<Record<string, never>>({ dialect: new PostgresDialect({ pool }) });
    const [a, b] = [bus(), bus()];
    await Promise.all([a.ready(), b.ready()]);
    const onA: object[] = [];
    const onB: object[] = [];
    a.subscribe('user:5', (e) => onA.push(e));
    b.subscribe('user:5', (e) => onB.push(e));
    const committed = await db.transaction().execute(async (trx) => {
      const done = await a.within(trx, [{ topic: 'user:5', event: { message: 1 } }, { topic: 'user:5', event: { credits: 9 } }]);
      await pause(300);
      // Not yet committed: nobody hears it.
      expect([onA, onB]).toEqual([[], []]);
      return done;
    });
    await until('B hears both at the commit', () => onB.length === 2);
    expect(onB).toEqual([{ message: 1 }, { credits: 9 }]);
    // This process's subscribers once the caller says the transaction committed.
    expect(onA).toEqual([]);
    committed();
    expect(onA).toEqual([{ message: 1 }, { credits: 9 }]);

    await expect(
      db.transaction().execute(async (trx) => {
        await a.within(trx, [{ topic: 'user:5', event: { message: 2 } }]);
        throw new Error('the send is refused');
      }),
    ).rejects.toThrow('refused');
    await a.publish('user:5', { message: 3 });
    await until('B hears the next event', () => onB.length === 3);
    expect(onB.at(-1)).toEqual({ message: 3 });
  });

  test('an event too big for NOTIFY is refused: events carry ids', async () => {
    const a = bus();
    await expect(a.publish('user:1', { text: 'x'.repeat(MAX_EVENT_BYTES) })).rejects.toThrow(/too big/);
    await expect(a.within({} as Kysely<Record<string, never>>, [{ topic: 'user:1', event: { text: 'x'.repeat(MAX_EVENT_BYTES) } }])).rejects.toThrow(/too big/);
  });

  test('two processes starting together run a task once, not once each', async () => {
    const schema = `${tag}_jobs`;
    const runs: string[] = [];
    const make = (who: string): Jobs => {
      const jobs = createPgBossJobs({ connectionString: url!, schema, applicationName: `${tag}:jobs`, log: () => {} });
      jobs.every('purge', 60, async () => {
        runs.push(who);
      });
      return jobs;
    };
    const [a, b] = [make('a'), make('b')];
    try {
      await Promise.all([a.start(), b.start()]);
      await until('the start run', () => runs.length > 0, 20_000);
      await pause(3_000);
      expect(runs).toHaveLength(1);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
      await adminQuery(`drop schema if exists ${schema} cascade`);
    }
  }, 40_000);
});
