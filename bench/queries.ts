/**
 * The queries of the members search and the likes at scale: every SQL statement the services
 * run for each request shape, captured from Kysely and explained on the engine (SQLite's EXPLAIN
 * QUERY PLAN, PostgreSQL's EXPLAIN), so a full scan of a large table shows. Used by bench/run.ts.
 */
import type { CompiledQuery, Kysely, KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryId, QueryResult, RootOperationNode, UnknownRow } from 'kysely';
import { createDb, type Db } from '../src/server/db/index.ts';
import { createMemoryBus } from '../src/server/bus.ts';
import { createLikeService, type Liker } from '../src/server/services/likes.ts';
import { createSwipeService } from '../src/server/services/swipes.ts';
import { createSearchService } from '../src/server/services/search.ts';
import { createListingCache } from '../src/server/services/listing-cache.ts';
import { aloneScope } from '../src/server/services/pool.ts';
import type { Tenant } from '../src/tenant/schema.ts';
import { percentiles } from './lib.ts';

/**
 * Records the root node of every query run through it, once per run: a statement compiled once
 * (src/server/db/compiled.ts) is built when its service is made and counted each time it runs.
 */
export class Capture implements KyselyPlugin {
  nodes: RootOperationNode[] = [];
  /** Beside each node, the values a statement compiled once ran with (its node holds placeholders); undefined for the others. */
  values: (readonly unknown[] | undefined)[] = [];
  #built = new WeakMap<object, RootOperationNode>();
  #ranWith = new WeakMap<object, readonly unknown[]>();
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    this.#built.set(args.queryId, args.node);
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const node = this.#built.get(args.queryId);
    if (node) {
      this.nodes.push(node);
      this.values.push(this.#ranWith.get(args.queryId));
    }
    return args.result;
  }
  /** `db.withPlugin(capture)`, noting the values of statements run compiled (db.executeQuery). */
  attach<DB>(db: Kysely<DB>): Kysely<DB> {
    const captured = db.withPlugin(this);
    const execute = captured.executeQuery.bind(captured);
    captured.executeQuery = ((query: CompiledQuery, queryId?: QueryId) => {
      if ('parameters' in query && query.queryId) this.#ranWith.set(query.queryId, query.parameters);
      return execute(query, queryId);
    }) as typeof captured.executeQuery;
    return captured;
  }
  /** The i-th statement as it ran: its node compiled on `db`, with the values it ran with. */
  compiled(db: Kysely<any>, i: number): CompiledQuery {
    const compiled = db.getExecutor().compileQuery(this.nodes[i]!, { queryId: 'bench' } as never);
    const values = this.values[i];
    return values ? { ...compiled, parameters: values } : compiled;
  }
  reset(): void {
    this.nodes = [];
    this.values = [];
  }
}

export function openBenchDb(engine: 'sqlite' | 'postgres', database: { file: string; schema?: string }): Db {
  return engine === 'postgres' ? createDb({ url: process.env.DATABASE_URL, schema: database.schema }) : createDb({ file: database.file });
}

/** The tables a full scan of would grow with the brand. */
const TABLES = new Set(['profiles', 'likes', 'swipes', 'blocks', 'photos', 'users', 'sessions', 'complaints', 'credit_ledger', 'conversations', 'conversation_members', 'messages']);

export interface Plan {
  shape: string;
  statements: number;
  /** Full scans of a table (SQLite: SCAN without an index, or an index read on tenant_id alone; PostgreSQL: Seq Scan), by table. */
  scans: string[];
}

/** A request shape: its name, and what it runs on a database handle (whose statements are captured). */
export type Shape = [string, (db: Db['db']) => Promise<unknown>];

/** Each request shape's statements and their plans, for one member. */
export async function explainShapes(handle: Db, tenant: Tenant, liker: Liker): Promise<Plan[]> {
  const bus = createMemoryBus();
  const search = (db: Db['db']) => createSearchService({ db, scopeOf: aloneScope, listings: createListingCache({ db }) });
  const likes = (db: Db['db']) => createLikeService({ db, bus, scopeOf: aloneScope });
  const swipes = (db: Db['db']) => createSwipeService({ db, bus, scopeOf: aloneScope, listings: createListingCache({ db }) });
  return explain(handle, [
    ['members.php', (db) => search(db).members(tenant, liker.userId, { page: 1 }, null)],
    ['members.php?min_age=30&max_age=40', (db) => search(db).members(tenant, liker.userId, { page: 1, min_age: 30, max_age: 40 }, null)],
    ['members.php?country=NL&region=Utrecht', (db) => search(db).members(tenant, liker.userId, { page: 1, country: 'NL', region: 'Utrecht' }, null)],
    ['likes.php', (db) => likes(db).list(tenant, liker)],
    ['likes.php?type=received', (db) => likes(db).list(tenant, liker, 'received')],
    ['likes.php?type=given', (db) => likes(db).list(tenant, liker, 'given')],
    ['likes.php?type=matches', (db) => likes(db).list(tenant, liker, 'matches')],
    ['new-likes badge', (db) => likes(db).newCount(tenant, liker)],
    ['swipe.php', (db) => swipes(db).deck(tenant, liker)],
    ['match-finder.php', (db) => swipes(db).suggestions(tenant, liker)],
    ['auto-like.php', (db) => likes(db).likedMeNotBack(tenant, liker)],
  ]);
}

/**
 * Runs each shape on a capturing handle and explains every statement it ran on the engine
 * (SQLite's EXPLAIN QUERY PLAN, PostgreSQL's EXPLAIN): the full scans of a large table, by name
 * and size. BENCH_EXPLAIN=1 prints the statement of each scan.
 */
export async function explain(handle: Db, shapes: Shape[]): Promise<Plan[]> {
  const capture = new Capture();
  const db = capture.attach(handle.db);
  const plans: Plan[] = [];
  for (const [shape, run] of shapes) {
    capture.reset();
    await run(db);
    const scans = new Set<string>();
    const wholeBrand = new Set<string>();
    for (const i of capture.nodes.keys()) {
      const compiled = capture.compiled(handle.db, i);
      if (handle.engine === 'sqlite') {
        const rows = (await handle.db.executeQuery({ ...compiled, sql: `explain query plan ${compiled.sql}` } as never)).rows as { detail: string }[];
        for (const r of rows) {
          const table = /^SCAN (\w+)/.exec(r.detail)?.[1];
          // A scan of a table, not of a bounded subquery's rows (b0, CONSTANT ROW).
          if (table && TABLES.has(table) && !/USING (COVERING )?INDEX/.test(r.detail)) scans.add(table);
          if (table && TABLES.has(table) && !/USING (COVERING )?INDEX/.test(r.detail) && process.env.BENCH_EXPLAIN) console.log(`${shape}: ${compiled.sql}`);
          // An index read on the brand alone is a scan of a whole brand (every member of spetter).
          const brand = /^SEARCH (\w+) USING (?:COVERING )?INDEX \w+ \(tenant_id=\?\)$/.exec(r.detail)?.[1];
          if (brand && TABLES.has(brand)) wholeBrand.add(brand);
        }
      } else {
        const rows = (await handle.pool!.query(`explain ${compiled.sql}`, compiled.parameters as unknown[])).rows as { 'QUERY PLAN': string }[];
        if (process.env.BENCH_EXPLAIN === 'all') console.log(`${shape}: ${compiled.sql}\n${rows.map((r) => r['QUERY PLAN']).join('\n')}`);
        for (const r of rows) {
          const m = /Seq Scan on (\w+)/.exec(r['QUERY PLAN']);
          if (m && TABLES.has(m[1]!)) scans.add(m[1]!);
          if (m && TABLES.has(m[1]!) && process.env.BENCH_EXPLAIN) console.log(`${shape}: ${compiled.sql}`);
        }
      }
    }
    // A scan of a small table (no blocks yet, no photos drawn) is the planner's right choice: say its size.
    const sized: string[] = [];
    for (const table of scans) {
      const { n } = await handle.db.selectFrom(table as 'profiles').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      sized.push(`${table} (${Number(n).toLocaleString('en')} rows)`);
    }
    for (const table of wholeBrand) sized.push(`${table} (every row of a brand, through its tenant_id index)`);
    plans.push({ shape, statements: capture.nodes.length, scans: sized });
  }
  return plans;
}

/** Each shape run `times` after another on the handle, in process (no HTTP, no session): its statements' own time, ms. */
export async function timeShapes(handle: Db, shapes: Shape[], times: number): Promise<{ shape: string; p50: number; p95: number }[]> {
  const timed: { shape: string; p50: number; p95: number }[] = [];
  for (const [shape, run] of shapes) {
    const spent: number[] = [];
    for (let i = 0; i < times; i++) {
      const t0 = performance.now();
      await run(handle.db);
      spent.push(performance.now() - t0);
    }
    timed.push({ shape, ...percentiles(spent) });
  }
  return timed;
}
