/**
 * Token-bucket rate limits. In memory for one instance; behind the RateLimiter interface so the
 * shared PostgreSQL limiter (store/pg-rate-limit.ts) replaces it when several instances run.
 */
import type { RateLimitConfig } from '../config.js';

export interface RateDecision {
  allowed: boolean;
  /** Whole seconds until a request would be allowed (for Retry-After); 0 when allowed. */
  retryAfterSeconds: number;
}

export interface RateLimiter {
  /** Takes one token for this key (a promise when the buckets live in the database). */
  take(key: string): RateDecision | Promise<RateDecision>;
}

interface Bucket {
  tokens: number;
  updatedAt: number;
}

export class TokenBucketLimiter implements RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private lastSweep = 0;

  constructor(
    private readonly limit: RateLimitConfig,
    private readonly now: () => number = Date.now,
  ) {}

  take(key: string): RateDecision {
    const now = this.now();
    this.sweep(now);
    const bucket = this.buckets.get(key) ?? { tokens: this.limit.burst, updatedAt: now };
    bucket.tokens = Math.min(this.limit.burst, bucket.tokens + ((now - bucket.updatedAt) / 1000) * this.limit.ratePerSecond);
    bucket.updatedAt = now;
    this.buckets.set(key, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return { allowed: true, retryAfterSeconds: 0 };
    }
    const wait = (1 - bucket.tokens) / this.limit.ratePerSecond;
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(wait)) };
  }

  /** Forget buckets that have refilled completely: they behave exactly like new ones. */
  private sweep(now: number): void {
    if (now - this.lastSweep < 10_000) return;
    this.lastSweep = now;
    const refill = (this.limit.burst / this.limit.ratePerSecond) * 1000;
    for (const [key, b] of this.buckets) if (now - b.updatedAt > refill) this.buckets.delete(key);
  }
}
