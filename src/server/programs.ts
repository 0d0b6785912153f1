import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A brand's build records what it is in dist/<id>/.sitegen-build.json; `program` names the server
 * code it was built with (docs/ONE-BUILD.md, step 1). The brand is not compiled into that code, so
 * brands of the same languages build the same program: it is kept once under
 * dist/_programs/<program>/ and loaded once per process, whatever the number of its brands.
 */
export const BUILD_STAMP = '.sitegen-build.json';

/** The folder of dist/ that holds the programs shared by brands (no tenant id starts with `_`). */
export const PROGRAMS_FOLDER = '_programs';

export interface BuildStamp {
  id: string;
  /** The newest change among the build's sources when it started (cli/build.ts). */
  sources: number;
  built: string;
  /** The SHA-256 of the build's server code; absent in builds from before programs were shared. */
  program?: string;
  /**
   * The shared texts its pages show (tenants/_defaults/landers/, content/pages/), the names of its
   * pool's other brands they show, and a fingerprint of both (src/server/output-dependencies.ts
   * OutputInputs); absent in builds from before.
   */
  shared?: { fingerprint: string; files: string[]; pool?: string[] };
}

/** A brand's build stamp, or undefined when the brand is not built (or was built before stamps). */
export function readBuildStamp(distDir: string, id: string): BuildStamp | undefined {
  try {
    return JSON.parse(readFileSync(join(distDir, id, BUILD_STAMP), 'utf8')) as BuildStamp;
  } catch {
    return undefined;
  }
}

/** The folder of a shared program (its `server/entry.mjs` is the Astro handler). */
export function programDir(distDir: string, program: string): string {
  return join(distDir, PROGRAMS_FOLDER, program);
}
