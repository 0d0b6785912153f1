import type pg from 'pg';
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { tooMany, type MessageKey } from './errors.ts';

/** One limit: so many attempts per key in a window. */
export interface LimitSpec {
  /** Names the limit; keys of different limits never meet. */
  name: string;
  points: number;
  windowSeconds: number;
  /** The catalogue message of the refusal (`error_too_many` by default). */
  message?: MessageKey;
}

export interface Limit {
  /** Counts one attempt for each key; past the limit of any, 429 with Retry-After. */
  take(...keys: (string | number | null | undefined)[]): Promise<void>;
  /** Counts one attempt; true while within the limit (for callers that refuse in their own words). */
  tryTake(key: string | number): Promise<boolean>;
  /** Gives one attempt back to a key (one counted before it was known to be harmless). */
  giveBack(key: string | number): Promise<void>;
  /** Forgets a key's attempts (a successful login). */
  reset(key: string | number): Promise<void>;
}

export type Limits = (spec: LimitSpec) => Limit;

/**
 * Rate limits with rate-limiter-flexible (DESIGN §6, §9): in memory on SQLite (one process), in
 * the `rate_limits` table on PostgreSQL so that every runtime process counts against one limit.
 */
export function createLimits(store: { pool: pg.Pool } | null): Limits {
  return (spec) => {
    const options = { keyPrefix: spec.name, points: spec.points, duration: spec.windowSeconds };
    const limiter: RateLimiterAbstract = store
      ? new RateLimiterPostgres({ ...options, storeClient: store.pool, tableName: 'rate_limits', tableCreated: true, clearExpiredByTimeout: false })
      : new RateLimiterMemory(options);
    async function consume(key: string): Promise<RateLimiterRes | null> {
      try {
        await limiter.consume(key);
        return null;
      } catch (refusal) {
        if (refusal instanceof RateLimiterRes) return refusal;
        throw refusal;
      }
    }
    return {
      async take(...keys) {
        for (const key of keys) {
          if (key === null || key === undefined || key === '') continue;
          const refused = await consume(String(key));
          if (refused) throw tooMany(refused.msBeforeNext / 1000, spec.message);
        }
      },
      async tryTake(key) {
        return (await consume(String(key))) === null;
      },
      async giveBack(key) {
        await limiter.reward(String(key));
      },
      async reset(key) {
        await limiter.delete(String(key));
      },
    };
  };
}
