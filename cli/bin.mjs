#!/usr/bin/env node
// npm links this file into node_modules/.bin; the real CLI is TypeScript run by Node 24's type stripping.
import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';

const here = dirname(realpathSync(new URL(import.meta.url).pathname));
await import(pathToFileURL(join(here, 'main.ts')).href);
