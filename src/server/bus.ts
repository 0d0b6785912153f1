import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { sql, type Kysely } from 'kysely';

/** One event of a topic, as `EventBus.within` takes them. */
export interface BusEvent {
  topic: string;
  event: object;
}

/**
 * The event bus (DESIGN §9): a process publishes that something changed, every subscriber of the
 * topic in every runtime process hears it. Events carry ids only; the database is the record, the
 * bus only says "look". Callers publish after their transaction has committed, or with it (`within`).
 */
export interface EventBus {
  publish(topic: string, event: object): Promise<void>;
  /**
   * Publishes `events` with the commit of `trx`, for a change that must be heard as soon as it is
   * committed (a chat message, issue 24): on PostgreSQL a pg_notify in the transaction, which the
   * database hands to the other processes at its commit (no round trip after it, and nothing for a
   * transaction rolled back). Call the returned function once `trx` has committed: it tells this
   * process's subscribers. One process: they are told then, and only then.
   */
  within(trx: Kysely<any>, events: BusEvent[]): Promise<() => void>;
  /** Calls `handler` with each event of `topic` until the returned function is called. */
  subscribe(topic: string, handler: (event: object) => void): () => void;
  /** Resolves once events from other processes can be heard. */
  ready(): Promise<void>;
  /**
   * Which unbroken stretch of listening this is: a number that changes each time the bus listens
   * anew (events of other processes in between were not heard), null while it cannot hear them.
   * One process: always 0.
   */
  listening(): number | null;
  close(): Promise<void>;
}

/**
 * PostgreSQL refuses NOTIFY payloads of 8000 bytes or more; events are ids, far below this.
 * A bigger event is a programming error and is refused before it reaches the database.
 */
export const MAX_EVENT_BYTES = 7_900;

/** Waits between attempts to listen again after the listening connection was lost (ms). */
const RECONNECT_DELAYS = [100, 250, 500, 1_000, 2_000, 5_000];

/**
 * A connection can die without a word (a half-open socket after a network cut): the listener
 * NOTIFYs itself this often and drops a connection that has not heard itself within the time
 * after (ms; our choice). The session cache trusts the bus only while it hears (sessions.ts).
 */
export const BUS_PING_EVERY_MS = 10_000;
export const BUS_PING_TIMEOUT_MS = 5_000;
const PING_TOPIC = 'bus:ping';

/** The subscribers of one process, by topic. */
function createTopics() {
  const handlers = new Map<string, Set<(event: object) => void>>();
  return {
    deliver(topic: string, event: object): void {
      for (const handler of handlers.get(topic) ?? []) {
        try {
          handler(event);
        } catch {
          // One failing subscriber (a stream that just closed) never keeps the event from the others.
        }
      }
    },
    add(topic: string, handler: (event: object) => void): () => void {
      const set = handlers.get(topic) ?? new Set();
      set.add(handler);
      handlers.set(topic, set);
      return () => {
        set.delete(handler);
        if (set.size === 0 && handlers.get(topic) === set) handlers.delete(topic);
      };
    },
  };
}

function deliverAll(topics: ReturnType<typeof createTopics>, events: BusEvent[]): void {
  for (const { topic, event } of events) topics.deliver(topic, event);
}

/** One process (SQLite, tests): events go straight to this process's subscribers. */
export function createMemoryBus(): EventBus {
  const topics = createTopics();
  return {
    async publish(topic, event) {
      topics.deliver(topic, event);
    },
    async within(_trx, events) {
      return () => deliverAll(topics, events);
    },
    subscribe: (topic, handler) => topics.add(topic, handler),
    async ready() {},
    listening: () => 0,
    async close() {},
  };
}

/**
 * The LISTEN/NOTIFY channel of one database schema, so runtimes on other schemas never hear it.
 * Without a configured schema, the one the tables live in: the first of the search path that
 * exists (usually public); the triggers of the session cache name the channel after it too.
 */
export async function channelOf(db: Kysely<any>, configured: string | undefined): Promise<string> {
  const schema = configured ?? (await sql<{ schema: string | null }>`select current_schema() as schema`.execute(db)).rows[0]?.schema ?? undefined;
  return `sitegen_events_${schema ?? 'public'}`.toLowerCase().slice(0, 63);
}

/** One event as a NOTIFY payload of `processId`, refused when too big for PostgreSQL. */
function envelopeOf(topic: string, event: object, processId: string): string {
  const payload = JSON.stringify({ t: topic, e: event, p: processId } satisfies Envelope);
  if (Buffer.byteLength(payload) > MAX_EVENT_BYTES) throw new Error(`event bus: an event of ${topic} is too big; send ids`);
  return payload;
}

/** NOTIFYs the payloads on `channel` in one statement of `db` (a transaction: at its commit). */
async function notifyAll(db: Kysely<any>, channel: string, payloads: string[]): Promise<void> {
  if (payloads.length === 0) return;
  await sql`select ${sql.join(payloads.map((payload) => sql`pg_notify(${channel}, ${payload})`))}`.execute(db);
}

/**
 * A process that only tells the runtimes (the CLI: `sitegen staff remove` closes the staff
 * member's console streams): the same NOTIFY the runtimes' buses send, heard by every runtime on
 * the channel; it hears nothing itself.
 */
export function createPublishingBus(opts: { pool: pg.Pool; channel: string }): EventBus {
  const processId = randomUUID();
  return {
    async publish(topic, event) {
      await opts.pool.query('select pg_notify($1, $2)', [opts.channel, envelopeOf(topic, event, processId)]);
    },
    async within(trx, events) {
      await notifyAll(trx, opts.channel, events.map(({ topic, event }) => envelopeOf(topic, event, processId)));
      return () => undefined;
    },
    subscribe: () => () => undefined,
    async ready() {},
    listening: () => null,
    async close() {},
  };
}

export interface PostgresBusOptions {
  connectionString: string;
  /** The NOTIFY channel; runtimes on other database schemas use another one and never hear these. */
  channel: string;
  /** Publishing borrows a connection from the runtime's pool. */
  pool: pg.Pool;
  /** Names the listening connection in pg_stat_activity (ends in ":bus"). */
  applicationName: string;
  log?: (line: string) => void;
}

/** What travels in a NOTIFY payload: the topic, the event and the publishing process. */
interface Envelope {
  t: string;
  e: object;
  p: string;
}

/**
 * Many processes (PostgreSQL): LISTEN on a dedicated connection that connects again by itself
 * when it is cut (a restart, a failover, pg_terminate_backend). Events published while it is
 * down are not heard by this process; clients catch up by id (DESIGN §9). A process delivers its
 * own events to its subscribers at once, without waiting for the round trip.
 */
export function createPostgresBus(opts: PostgresBusOptions): EventBus {
  const topics = createTopics();
  const processId = randomUUID();
  const log = opts.log ?? ((line) => console.error(line));
  let client: pg.Client | null = null;
  /** Counts the times LISTEN took effect (see EventBus.listening). */
  let epoch = 0;
  let closed = false;
  let attempt = 0;
  let timer: NodeJS.Timeout | undefined;
  /** The nonce of the ping the listener waits to hear, if any. */
  let pingWaiting: string | null = null;
  let markReady!: () => void;
  const firstListen = new Promise<void>((resolve) => (markReady = resolve));

  function heard(message: pg.Notification): void {
    if (message.channel !== opts.channel || !message.payload) return;
    let envelope: Envelope;
    try {
      envelope = JSON.parse(message.payload) as Envelope;
    } catch {
      return;
    }
    if (envelope.t === PING_TOPIC) {
      if (envelope.p === processId && (envelope.e as { n?: unknown })?.n === pingWaiting) pingWaiting = null;
      return;
    }
    if (envelope.p === processId || typeof envelope.t !== 'string') return;
    topics.deliver(envelope.t, envelope.e);
  }

  /** Gives up a listening connection that stopped answering, and listens anew. */
  function drop(dead: pg.Client, why: string): void {
    if (client !== dead) return;
    client = null;
    log(`event bus: ${why}; listening again`);
    dead.removeAllListeners('end');
    dead.removeAllListeners('notification');
    dead.on('error', () => {});
    void dead.end().catch(() => {});
    retry();
  }

  /** The listener NOTIFYs itself; unheard within BUS_PING_TIMEOUT_MS, its connection is dropped. */
  function ping(): void {
    const listening = client;
    if (!listening || pingWaiting) return;
    const nonce = randomUUID();
    pingWaiting = nonce;
    setTimeout(() => {
      if (pingWaiting === nonce) drop(listening, 'the listening connection did not hear itself');
    }, BUS_PING_TIMEOUT_MS).unref();
    listening.query('select pg_notify($1, $2)', [opts.channel, JSON.stringify({ t: PING_TOPIC, e: { n: nonce }, p: processId } satisfies Envelope)]).catch(() => {
      // A cut connection: its 'end' listens again.
    });
  }
  const pinger = setInterval(ping, BUS_PING_EVERY_MS);
  pinger.unref();

  function retry(): void {
    if (closed || timer) return;
    const delay = RECONNECT_DELAYS[Math.min(attempt, RECONNECT_DELAYS.length - 1)];
    attempt += 1;
    timer = setTimeout(() => {
      timer = undefined;
      void listen();
    }, delay);
    timer.unref();
  }

  async function listen(): Promise<void> {
    const next = new pg.Client({ connectionString: opts.connectionString, application_name: opts.applicationName });
    // A cut connection emits 'error' and then 'end'; both only lead to listening again.
    next.on('error', (error) => {
      if (client === next) log(`event bus: listening connection lost (${error.message}); listening again`);
    });
    next.on('end', () => {
      if (client === next) client = null;
      retry();
    });
    next.on('notification', heard);
    try {
      await next.connect();
      await next.query(`LISTEN ${pg.escapeIdentifier(opts.channel)}`);
    } catch (error) {
      next.removeAllListeners('end');
      next.end().catch(() => {});
      if (!closed && attempt % RECONNECT_DELAYS.length === 0) log(`event bus: cannot listen yet (${(error as Error).message})`);
      retry();
      return;
    }
    if (closed) {
      await next.end().catch(() => {});
      return;
    }
    client = next;
    epoch += 1;
    pingWaiting = null;
    attempt = 0;
    markReady();
  }

  void listen();
  const outbox = createOutbox(opts.pool, opts.channel, log);

  return {
    async publish(topic, event) {
      const payload = envelopeOf(topic, event, processId);
      topics.deliver(topic, event);
      return outbox.send(topic, payload);
    },
    async within(trx, events) {
      // Heard by the other processes at the commit; this process's own subscribers after it (the caller's call).
      await notifyAll(trx, opts.channel, events.map(({ topic, event }) => envelopeOf(topic, event, processId)));
      return () => deliverAll(topics, events);
    },
    subscribe: (topic, handler) => topics.add(topic, handler),
    ready: () => firstListen,
    listening: () => (client ? epoch : null),
    async close() {
      closed = true;
      clearTimeout(timer);
      clearInterval(pinger);
      const last = client;
      client = null;
      await last?.end().catch(() => {});
    },
  };
}

/** Payloads per NOTIFY statement at most: far below PostgreSQL's bound-parameter limit. */
const NOTIFY_BATCH = 100;

/**
 * The NOTIFYs of one process, one statement at a time and in the order published: the events
 * published while a statement is on its way (the several events of one chat message, published
 * together) go in the next one, `select pg_notify($1, $2), pg_notify($1, $3), …`, one round trip
 * to the database for all of them. Each publish resolves once its statement has run.
 */
function createOutbox(pool: pg.Pool, channel: string, log: (line: string) => void) {
  let waiting: { topic: string; payload: string; sent: () => void }[] = [];
  let sending = false;

  async function drain(): Promise<void> {
    sending = true;
    while (waiting.length > 0) {
      const batch = waiting.slice(0, NOTIFY_BATCH);
      waiting = waiting.slice(batch.length);
      const calls = batch.map((_, i) => `pg_notify($1, $${i + 2})`).join(', ');
      try {
        await pool.query(`select ${calls}`, [channel, ...batch.map((b) => b.payload)]);
      } catch (error) {
        // The change is committed; other processes' clients catch up by id when they next ask.
        log(`event bus: could not publish ${[...new Set(batch.map((b) => b.topic))].join(', ')} (${(error as Error).message})`);
      }
      for (const b of batch) b.sent();
    }
    sending = false;
  }

  return {
    send(topic: string, payload: string): Promise<void> {
      return new Promise((sent) => {
        waiting.push({ topic, payload, sent });
        // After the publisher's other events of this moment (a microtask later), unless a statement is already on its way.
        if (!sending) {
          sending = true;
          queueMicrotask(() => void drain());
        }
      });
    },
  };
}
