/**
 * Brands published to the database and written into another machine's tenants folder
 * (src/server/brand-sync.ts), on one SQLite database and the in-memory bus: what a runtime on
 * PostgreSQL does on the bus's event (tests/api/machines.test.ts runs it across two processes).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { createDb, type Db } from '../../src/server/db/index.ts';
import { migrateToLatest } from '../../src/server/db/migrate.ts';
import { createMemoryBus } from '../../src/server/bus.ts';
import { publishBrands, readBrandFolder, startBrandSync } from '../../src/server/brand-sync.ts';
import { until } from '../support/sse.ts';

describe('brands from the database', () => {
  let root: string;
  let db: Db;
  let here: string;
  let there: string;
  const bus = createMemoryBus();
  const writeBrand = (dir: string, id: string, name: string) => {
    mkdirSync(join(dir, id, 'landers'), { recursive: true });
    writeFileSync(join(dir, id, 'tenant.json'), JSON.stringify({ name }));
    writeFileSync(join(dir, id, 'landers', 'hello.nl.md'), `# ${name}\n`);
  };

  beforeEach(async () => {
    root = mkdtempSync(join(tmpdir(), 'sitegen-brand-sync-'));
    here = join(root, 'here');
    there = join(root, 'there');
    mkdirSync(here);
    mkdirSync(there);
    db = createDb({ file: join(root, 'app.db') });
    await migrateToLatest(db.db);
  });
  afterEach(async () => {
    await db.close();
    rmSync(root, { recursive: true, force: true });
  });

  test('a published brand is written whole on the other machine, an edit replaces it, a withdrawal removes it; a folder never published is left alone', async () => {
    writeBrand(here, 'flirtx', 'Flirtx');
    writeBrand(there, 'local', 'Only there');
    const seen: Array<{ changed: string[]; removed: string[] }> = [];
    const sync = startBrandSync({ db: db.db, bus, tenantsDir: there, log: () => undefined, onChange: (changed, removed) => void seen.push({ changed, removed }) });
    await sync.ready;
    try {
      expect(await publishBrands(db.db, bus, here, ['flirtx'])).toEqual({ published: ['flirtx'], withdrawn: [], unchanged: [] });
      await until('flirtx arrives', () => existsSync(join(there, 'flirtx', 'landers', 'hello.nl.md')));
      expect(readBrandFolder(there, 'flirtx').hash).toBe(readBrandFolder(here, 'flirtx').hash);
      expect(seen.at(-1)).toEqual({ changed: ['flirtx'], removed: [] });

      // Publishing the same folder again changes nothing anywhere.
      expect((await publishBrands(db.db, bus, here, 'all')).unchanged).toEqual(['flirtx']);

      writeBrand(here, 'flirtx', 'Flirt X');
      expect((await publishBrands(db.db, bus, here, ['flirtx'])).published).toEqual(['flirtx']);
      await until('the edit arrives', () => readFileSync(join(there, 'flirtx', 'tenant.json'), 'utf8').includes('Flirt X'));

      rmSync(join(here, 'flirtx'), { recursive: true });
      expect((await publishBrands(db.db, bus, here, 'all')).withdrawn).toEqual(['flirtx']);
      await until('flirtx leaves', () => !existsSync(join(there, 'flirtx')));
      expect(seen.at(-1)).toEqual({ changed: [], removed: ['flirtx'] });
      expect(existsSync(join(there, 'local', 'tenant.json'))).toBe(true);
    } finally {
      sync.stop();
    }
  });

  test('a machine starting later gets every published brand before it serves; a path outside the brand folder is refused', async () => {
    writeBrand(here, 'flirtx', 'Flirtx');
    await publishBrands(db.db, undefined, here, 'all');
    const late = startBrandSync({ db: db.db, bus, tenantsDir: there, log: () => undefined, onChange: () => undefined });
    await late.ready;
    late.stop();
    expect(JSON.parse(readFileSync(join(there, 'flirtx', 'tenant.json'), 'utf8'))).toEqual({ name: 'Flirtx' });

    const logged: string[] = [];
    await db.db.insertInto('brands').values({ id: 'evil', files: JSON.stringify({ '../../escape.txt': Buffer.from('x').toString('base64') }), hash: 'h' }).execute();
    const refusing = startBrandSync({ db: db.db, bus, tenantsDir: there, log: (line) => logged.push(line), onChange: () => undefined });
    await refusing.ready;
    refusing.stop();
    expect(existsSync(join(root, 'escape.txt'))).toBe(false);
    expect(existsSync(join(there, 'evil'))).toBe(false);
    expect(logged.join('\n')).toContain('refused the published path');
  });
});
