/**
 * Lighthouse on a phone: the four category scores and LCP, TBT and CLS per page, for every brand,
 * public pages as a visitor, then member pages with an active member's cookies in the browser.
 *
 * `node bench/lighthouse.ts` alone, or `npm run bench -- lighthouse` as a section of bench/run.ts.
 * Lighthouse's default (mobile) settings: a simulated mid-range phone, 4x CPU slowdown and a slow
 * 4G network, simulated from one unthrottled load (so fairly stable on shared cores), driving
 * Debian's Chromium (CHROME_PATH, default /usr/bin/chromium) through chrome-launcher, headless.
 * It starts its own runtime (SQLite, seeded: bench/lib.ts) and prints; it never asserts.
 * Environment: LH_PAGES (a comma-separated filter on the page column, e.g. "/members,/profile"),
 * LH_BRANDS (e.g. "velvet"), LH_RUNS (runs per page, default 1; the median of the performance
 * score is kept with its run's metrics), LH_DETAIL=1 (prints what shifted and the console's errors),
 * LH_SAVE=<folder> (keeps every run's full report as JSON, to read its trace audits: the LCP's
 * phases, the request chains, the main thread's tasks).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import lighthouse from 'lighthouse';
import * as chromeLauncher from 'chrome-launcher';
import { listTenantIds } from '../src/tenant/load.ts';
import { activate, signUp, startRuntime, table, type Member, type Runtime } from './lib.ts';

const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;

function pagesOf(member: Member): { page: string; path: string; member: boolean }[] {
  return [
    { page: '/', path: '/', member: false },
    { page: 'lander', path: '/landers/tinderswipe', member: false },
    { page: '/login', path: '/login', member: false },
    { page: '/members', path: '/members', member: true },
    { page: '/members/{id}', path: `/members/${member.profileId}`, member: true },
    { page: '/profile', path: '/profile', member: true },
    { page: '/likes', path: '/likes', member: true },
    { page: '/chats', path: '/chats', member: true },
    { page: '/credits', path: '/credits', member: true },
  ];
}

interface Result {
  scores: Record<(typeof CATEGORIES)[number], number>;
  lcp: number;
  tbt: number;
  cls: number;
  /** The audits of the categories that failed (score below 1, scored), for reading the rows. */
  failing: string[];
  /** What moved (the layout-shifts audit's elements and scores) and the console's errors. */
  detail: string[];
}

/**
 * Puts the member's cookies into the browser as a login would (the session and the readable
 * `signed_in` hint that prerendered pages read before their first paint): a Cookie header alone
 * would leave document.cookie without the hint. Lighthouse's storage reset keeps cookies.
 */
async function logIn(port: number, url: string, member: Member): Promise<void> {
  const { webSocketDebuggerUrl } = (await (await fetch(`http://127.0.0.1:${port}/json/version`)).json()) as { webSocketDebuggerUrl: string };
  const ws = new WebSocket(webSocketDebuggerUrl);
  await new Promise((resolve, reject) => ((ws.onopen = resolve), (ws.onerror = reject)));
  const cookies = member.setCookies.map((line) => {
    const [pair, ...attrs] = line.split(';').map((s) => s.trim());
    const at = pair!.indexOf('=');
    const has = (a: string) => attrs.some((x) => x.toLowerCase() === a);
    const sameSite = attrs.find((x) => /^samesite=/i.test(x))?.split('=')[1];
    return { name: pair!.slice(0, at), value: pair!.slice(at + 1), url, path: '/', secure: has('secure'), httpOnly: has('httponly'), ...(sameSite ? { sameSite: sameSite[0]!.toUpperCase() + sameSite.slice(1).toLowerCase() } : {}) };
  });
  const answer = await new Promise<{ error?: { message: string } }>((resolve) => {
    ws.onmessage = (e) => resolve(JSON.parse(String(e.data)));
    ws.send(JSON.stringify({ id: 1, method: 'Storage.setCookies', params: { cookies } }));
  });
  ws.close();
  if (answer.error) throw new Error(`setting the member's cookies: ${answer.error.message}`);
}

async function audit(url: string, port: number, save?: string): Promise<Result> {
  const runner = await lighthouse(url, {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: [...CATEGORIES],
    // Every run starts from an empty cache, as a first visit.
    disableStorageReset: false,
  });
  if (!runner) throw new Error(`${url}: lighthouse returned nothing`);
  const lhr = runner.lhr;
  if (lhr.runtimeError) throw new Error(`${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  if (save) writeFileSync(save, JSON.stringify(lhr));
  const score = (c: string) => Math.round((lhr.categories[c]?.score ?? 0) * 100);
  const num = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
  const failing = new Set<string>();
  for (const c of CATEGORIES) {
    for (const ref of lhr.categories[c]?.auditRefs ?? []) {
      const a = lhr.audits[ref.id];
      if (!a || a.score === null || a.score >= 0.9 || a.scoreDisplayMode === 'informative' || a.scoreDisplayMode === 'notApplicable' || a.scoreDisplayMode === 'manual') continue;
      if (c === 'performance' && ref.weight === 0) continue;
      failing.add(ref.id);
    }
  }
  const detail: string[] = [];
  type Item = { node?: { selector?: string; snippet?: string }; score?: number; description?: string; source?: string };
  for (const item of ((lhr.audits['layout-shifts']?.details as { items?: Item[] } | undefined)?.items ?? [])) detail.push(`shift ${item.score?.toFixed(3)}: ${item.node?.selector ?? ''} ${item.node?.snippet?.slice(0, 120) ?? ''}`);
  for (const item of ((lhr.audits['errors-in-console']?.details as { items?: Item[] } | undefined)?.items ?? [])) detail.push(`console ${item.source ?? ''}: ${item.description?.slice(0, 200) ?? ''}`);
  for (const id of ['color-contrast', 'errors-in-console', 'image-aspect-ratio', 'image-size-responsive']) {
    const a = lhr.audits[id];
    if (!a || a.score === null || a.score >= 1 || id === 'errors-in-console') continue;
    for (const item of ((a.details as { items?: Item[] } | undefined)?.items ?? []).slice(0, 5)) detail.push(`${id}: ${item.node?.snippet?.slice(0, 160) ?? ''}`);
  }
  return {
    detail,
    scores: { performance: score('performance'), accessibility: score('accessibility'), 'best-practices': score('best-practices'), seo: score('seo') },
    lcp: num('largest-contentful-paint'),
    tbt: num('total-blocking-time'),
    cls: num('cumulative-layout-shift'),
    failing: [...failing],
  };
}

/** Runs Lighthouse on every page of every brand against a runtime it starts itself; prints a table. */
export async function lighthouseSection(): Promise<void> {
  const brands = (process.env.LH_BRANDS?.split(',') ?? listTenantIds()).filter(Boolean);
  const only = process.env.LH_PAGES?.split(',').filter(Boolean);
  const runs = Math.max(1, Number(process.env.LH_RUNS ?? 1));
  const saveDir = process.env.LH_SAVE;
  if (saveDir) mkdirSync(saveDir, { recursive: true });
  const rt = await startRuntime('sqlite');
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu'],
  });
  const rows: (string | number)[][] = [];
  const notes: string[] = [];
  try {
    for (const tenant of brands) {
      const member = await activate(rt, await signUp(rt, tenant));
      let loggedIn = false;
      for (const p of pagesOf(member)) {
        if (only && !only.includes(p.page)) continue;
        const url = `http://${rt.host(tenant)}${p.path}`;
        // The public pages come first, as a visitor; then the member logs in.
        if (p.member && !loggedIn) {
          await logIn(chrome.port, `http://${rt.host(tenant)}/`, member);
          loggedIn = true;
        }
        const results: Result[] = [];
        for (let i = 0; i < runs; i++) {
          const save = saveDir && join(saveDir, `${tenant}${p.page.replaceAll('/', '_').replace(/[{}]/g, '')}-${i + 1}.json`);
          // Lighthouse sometimes loses a trace on a busy machine (NO_NAVSTART): once more.
          results.push(await audit(url, chrome.port, save).catch((e: Error) => (console.log(`  ${tenant} ${p.page}: ${e.message}; again`), audit(url, chrome.port, save))));
        }
        results.sort((a, b) => a.scores.performance - b.scores.performance);
        const r = results[Math.floor((results.length - 1) / 2)]!;
        const perf = results.map((x) => x.scores.performance).join('/');
        rows.push([tenant, p.page, perf, r.scores.accessibility, r.scores['best-practices'], r.scores.seo, (r.lcp / 1000).toFixed(1), r.tbt.toFixed(0), r.cls.toFixed(3)]);
        if (r.failing.length) notes.push(`${tenant} ${p.page}: ${r.failing.join(', ')}`);
        if (process.env.LH_DETAIL) for (const d of r.detail) console.log(`    ${d}`);
        console.log(`  ${tenant} ${p.page}: performance ${perf}, LCP ${(r.lcp / 1000).toFixed(1)} s, TBT ${r.tbt.toFixed(0)} ms, CLS ${r.cls.toFixed(3)}`);
      }
    }
  } finally {
    chrome.kill();
    await rt.close();
  }
  table(
    `Lighthouse, mobile (simulated: mid-range phone, 4x CPU slowdown, slow 4G), ${runs} run${runs > 1 ? 's' : ''} a page; Chromium ${process.env.CHROME_PATH ?? '/usr/bin/chromium'}`,
    ['brand', 'page', 'perf', 'a11y', 'best pr.', 'seo', 'LCP s', 'TBT ms', 'CLS'],
    rows,
  );
  if (notes.length) {
    console.log('\nAudits below 0.9 (performance: weighted metrics only):');
    for (const n of notes) console.log(`  ${n}`);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await lighthouseSection();
