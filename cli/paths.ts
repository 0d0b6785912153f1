import { join } from 'node:path';

/** The checkout this CLI belongs to, and its folders. */
export const REPO_ROOT = join(import.meta.dirname, '..');
export const TENANTS_DIR = process.env.TENANTS_DIR ?? join(REPO_ROOT, 'tenants');
/** The static pages' texts (content/pages/), read when a brand's output is rendered (docs/ONE-BUILD.md step 6). */
export const CONTENT_DIR = process.env.CONTENT_DIR ?? join(REPO_ROOT, 'content');
export const DIST_DIR = process.env.DIST_DIR ?? join(REPO_ROOT, 'dist');
export const DATA_DIR = process.env.DATA_DIR ?? join(REPO_ROOT, 'data');
