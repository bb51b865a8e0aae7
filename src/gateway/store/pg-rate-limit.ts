/**
 * Token buckets shared by every gateway instance on one PostgreSQL database: one row per key,
 * refilled and taken in a single atomic upsert on the database clock, so N instances allow what
 * one would (not N times as much) and clock skew between instances does not matter.
 *
 * Each instance also keeps a local bucket per key that counts only the requests the shared bucket
 * let through here. It can never hold fewer tokens than the shared one (same size and refill, a
 * subset of its takes), so when it is empty the shared one is too: such requests are refused
 * without a database round trip, which keeps a flood from one client off the database.
 */
import { sql, type Kysely } from 'kysely';
import type { RateLimitConfig } from '../config.js';
import type { RateDecision, RateLimiter } from '../http/rate-limit.js';
import type { Database } from './schema.js';

export class PostgresRateLimiter implements RateLimiter {
  private lastSweep = 0;
  private readonly local = new Map<string, { tokens: number; at: number }>();
  private lastLocalSweep = 0;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly name: string,
    private readonly limit: RateLimitConfig,
  ) {}

  async take(key: string): Promise<RateDecision> {
    const { burst, ratePerSecond: rate } = this.limit;
    const mine = this.localBucket(key);
    if (mine.tokens < 1) return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - mine.tokens) / rate)) };
    // Keys come from request paths: PostgreSQL text cannot hold NUL, so it is replaced (found by test/fuzz).
    const bucket = `${this.name}:${key}`.replace(/\0/g, '\uFFFD');
    const now = sql<number>`(extract(epoch from clock_timestamp()) * 1000)::bigint`;
    // Tokens after refill: min(burst, tokens + elapsed * rate). One is taken when at least one is there.
    const refill = sql<number>`least(${burst}::float8, rate_limits.tokens + greatest(0, ${now} - rate_limits.updated_ms) * ${rate}::float8 / 1000)`;
    const row = await sql<{ tokens: number; allowed: number }>`
      insert into rate_limits (key, tokens, updated_ms, allowed)
      values (${bucket}, ${burst - 1}::float8, ${now}, 1)
      on conflict (key) do update set
        tokens = case when ${refill} >= 1 then ${refill} - 1 else ${refill} end,
        updated_ms = greatest(rate_limits.updated_ms, ${now}),
        allowed = case when ${refill} >= 1 then 1 else 0 end
      returning tokens, allowed`.execute(this.db);
    this.sweep();
    const { tokens, allowed } = row.rows[0]!;
    if (allowed === 1) {
      mine.tokens -= 1;
      return { allowed: true, retryAfterSeconds: 0 };
    }
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - tokens) / rate)) };
  }

  /** This instance's bucket for the key, refilled to now. */
  private localBucket(key: string): { tokens: number; at: number } {
    const now = Date.now();
    const { burst, ratePerSecond } = this.limit;
    if (now - this.lastLocalSweep > 10_000) {
      this.lastLocalSweep = now;
      const refillMs = (burst / ratePerSecond) * 1000;
      for (const [k, b] of this.local) if (now - b.at > refillMs) this.local.delete(k);
    }
    const b = this.local.get(key) ?? { tokens: burst, at: now };
    b.tokens = Math.min(burst, b.tokens + ((now - b.at) / 1000) * ratePerSecond);
    b.at = now;
    this.local.set(key, b);
    return b;
  }

  /** Buckets that have refilled completely behave like absent ones: drop them now and then. */
  private sweep(): void {
    const nowMs = Date.now();
    if (nowMs - this.lastSweep < 60_000) return;
    this.lastSweep = nowMs;
    const fullAfterMs = Math.ceil((this.limit.burst / this.limit.ratePerSecond) * 1000) + 1000;
    void sql`delete from rate_limits where key like ${this.name + ':%'} and updated_ms < (extract(epoch from clock_timestamp()) * 1000)::bigint - ${fullAfterMs}`
      .execute(this.db)
      .catch(() => {});
  }
}
