import { join } from 'node:path';

/** The checkout this CLI belongs to, and its folders. */
export const REPO_ROOT = join(import.meta.dirname, '..');
export const TENANTS_DIR = process.env.TENANTS_DIR ?? join(REPO_ROOT, 'tenants');
export const DIST_DIR = process.env.DIST_DIR ?? join(REPO_ROOT, 'dist');
export const DATA_DIR = process.env.DATA_DIR ?? join(REPO_ROOT, 'data');
