/**
 * Reads a V8 .cpuprofile (node --cpu-prof) and sums self time per function and per package, so
 * bench/README.md can say where a request's milliseconds go.
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Where a script comes from: a package name, the project's own file, or node's internals. */
export function origin(url: string): string {
  if (!url) return '(native/gc)';
  if (url.startsWith('node:')) return 'node';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  const own = /\/(src|dist|cli)\/(.*)$/.exec(url);
  return own ? `${own[1]}/${own[2]!.split('/').slice(0, own[1] === 'dist' ? 1 : 2).join('/')}` : url;
}

export interface ProfileSummary {
  totalMs: number;
  idleMs: number;
  functions: { name: string; where: string; ms: number }[];
  origins: { origin: string; ms: number }[];
}

export function summarize(file: string): ProfileSummary {
  const p = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  p.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (p.timeDeltas[i] ?? 0) / 1000));
  let totalMs = 0;
  let idleMs = 0;
  const fns = new Map<string, { name: string; where: string; ms: number }>();
  const origins = new Map<string, number>();
  for (const [id, ms] of self) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    totalMs += ms;
    if (functionName === '(idle)') {
      idleMs += ms;
      continue;
    }
    const where = url ? `${url.replace(/^.*?\/(node_modules|src|dist|cli)\//, '$1/')}:${lineNumber + 1}` : '';
    const key = `${functionName} ${where}`;
    const f = fns.get(key) ?? { name: functionName || '(anonymous)', where, ms: 0 };
    f.ms += ms;
    fns.set(key, f);
    const o = functionName.startsWith('(') && !url ? functionName : origin(url);
    origins.set(o, (origins.get(o) ?? 0) + ms);
  }
  return {
    totalMs,
    idleMs,
    functions: [...fns.values()].sort((a, b) => b.ms - a.ms),
    origins: [...origins].map(([origin, ms]) => ({ origin, ms })).sort((a, b) => b.ms - a.ms),
  };
}
