import { z } from 'zod';

/** Ids are 32-bit integers on both engines: a larger one names nothing (400, never a database error). */
export const MAX_ID = 2_147_483_647;

/**
 * A database id in a JSON body: a JSON integer from 1 to 2^31-1 and nothing else. `true`, "1",
 * [1], "0x1" or "1e0" are refused, never read as member 1 (issue 20).
 */
export const BodyId = z.number().int().min(1).max(MAX_ID);

/** Decimal digits only, as routeId (src/lib/routes.ts) reads a page's id: no sign, exponent, hex, point or spaces. */
const digits = z.string().regex(/^\d{1,10}$/).transform(Number);

/** A database id in a query string (or the text fields of a form): digits only, 1 to 2^31-1. */
export const QueryId = digits.pipe(BodyId);

/** A message id to read after in a query string: digits only, 0 (from the start) to 2^31-1. */
export const QueryAfterId = digits.pipe(z.number().int().min(0).max(MAX_ID));
