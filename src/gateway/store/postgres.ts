/**
 * The PostgreSQL engine: the same KyselyStore queries over a pg pool, for several gateway instances
 * on one database. What differs from SQLite lives here: the unique-violation code, the pool, and
 * riding out a database restart (connections are retried; a transaction either commits whole or
 * not at all, so a retried call never leaves half a state change).
 */
import pg from 'pg';
import { Kysely, PostgresDialect } from 'kysely';
import type { RateLimitConfig } from '../config.js';
import { KyselyStore } from './kysely-store.js';
import { PostgresRateLimiter } from './pg-rate-limit.js';
import type { Database } from './schema.js';

export interface PostgresOptions {
  /** Connections per instance (default 10). */
  poolSize?: number;
  /** How long a call keeps retrying while the database is unreachable (default 15 s). */
  retryForMs?: number;
  log?: (line: string) => void;
}

export function isPostgresUrl(value: string | null | undefined): value is string {
  return typeof value === 'string' && /^postgres(ql)?:\/\//i.test(value);
}

function isPgUniqueViolation(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === '23505';
}

/**
 * Errors that mean "the database was not reachable or went away", as opposed to a query the
 * database refused: connection refused/reset, server shutting down or starting (57P0x), connection
 * exceptions (08xxx), and the driver's own "terminated" errors.
 */
export function isConnectionError(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown } | null;
  const code = typeof e?.code === 'string' ? e.code : '';
  if (['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN', '57P01', '57P02', '57P03'].includes(code)) return true;
  if (code.startsWith('08')) return true;
  const message = typeof e?.message === 'string' ? e.message : '';
  return /Connection terminated|connection timeout|Client has encountered a connection error|not queryable/i.test(message);
}

/** Serialization failures and deadlocks: the transaction was rolled back and may simply run again. */
function isRetryableConflict(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '40001' || code === '40P01';
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class PostgresStore extends KyselyStore {
  constructor(
    db: Kysely<Database>,
    private readonly pool: pg.Pool,
  ) {
    super(db, isPgUniqueViolation, 'postgres');
  }

  sharedRateLimiter(name: string, limit: RateLimitConfig): PostgresRateLimiter {
    return new PostgresRateLimiter(this.db, name, limit);
  }

  /** Idle connections in the pool (tests and metrics). */
  get poolStats(): { total: number; idle: number; waiting: number } {
    return { total: this.pool.totalCount, idle: this.pool.idleCount, waiting: this.pool.waitingCount };
  }
}

/**
 * Wraps every store call so that a database restart costs a delay, not an error: a call that fails
 * because the database is unreachable (or a transaction rolled back on a deadlock) runs again, with
 * back-off, for up to `retryForMs`. Safe because each call is one transaction: it either committed
 * (then the retry finds the change made: a stale sequence, a taken key, an unchanged row) or not.
 */
const NOT_RETRIED = new Set<string | symbol>(['close', 'constructor']);

function withRetries<T extends object>(store: T, retryForMs: number, log: (line: string) => void): T {
  return new Proxy(store, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (typeof value !== 'function' || NOT_RETRIED.has(prop)) return value;
      const call = (...args: unknown[]): unknown => (value as (...a: unknown[]) => unknown).apply(target, args);
      return (...args: unknown[]) => {
        const first = call(...args);
        // Only database calls (promises) are retried; anything synchronous passes through.
        if (!(first instanceof Promise)) return first;
        return (async () => {
          const started = Date.now();
          let attempt = 1;
          let pending: Promise<unknown> = first;
          for (;;) {
            try {
              return await pending;
            } catch (error) {
              const retryable = isConnectionError(error) || isRetryableConflict(error);
              if (!retryable || Date.now() - started >= retryForMs) throw error;
              if (attempt === 1) log(`[gateway] database ${String(prop)}: ${(error as Error)?.message ?? String(error)}; retrying`);
              await sleep(Math.min(1000, 50 * 2 ** Math.min(attempt, 5)));
              attempt++;
              pending = call(...args) as Promise<unknown>;
            }
          }
        })();
      };
    },
  });
}

/** At start, the database may still be starting (containers, failover): wait for it, then say clearly if not. */
async function waitForDatabase(pool: pg.Pool, url: string, retryForMs: number, log: (line: string) => void): Promise<void> {
  const started = Date.now();
  for (let attempt = 1; ; attempt++) {
    try {
      await pool.query('select 1');
      return;
    } catch (error) {
      if (!isConnectionError(error) || Date.now() - started >= retryForMs) {
        let where = 'PostgreSQL';
        try {
          const u = new URL(url);
          where = `PostgreSQL at ${u.hostname}:${u.port || 5432}${u.pathname}`;
        } catch {
          // keep the generic name; never print the URL (it may hold a password)
        }
        throw new Error(`${where} is not reachable: ${(error as Error)?.message ?? String(error)}`);
      }
      if (attempt === 1) log(`[gateway] waiting for the database: ${(error as Error)?.message ?? String(error)}`);
      await sleep(Math.min(1000, 100 * attempt));
    }
  }
}

export async function openPostgresStore(url: string, options: PostgresOptions = {}): Promise<PostgresStore> {
  const log = options.log ?? ((line: string) => process.stderr.write(line + '\n'));
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
    // Counts come back as int8; they are small, so numbers rather than strings.
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === 20 ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
    },
  });
  // An idle connection dropped by a database restart must not crash the process; the pool replaces it.
  pool.on('error', (error) => log(`[gateway] database connection lost: ${error.message}`));
  // A connection that dies while in use fails its query (which is retried); its 'error' event must
  // not become an uncaught exception.
  pool.on('connect', (client) => client.on('error', () => {}));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  const retryForMs = options.retryForMs ?? 15_000;
  const store = withRetries(new PostgresStore(db, pool), retryForMs, log);
  try {
    await waitForDatabase(pool, url, retryForMs, log);
    await store.migrate();
  } catch (error) {
    await store.close();
    throw error;
  }
  return store;
}
