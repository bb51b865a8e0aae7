/**
 * The test database, on either engine. SVC_TEST_DATABASE=postgres (set by scripts/with-postgres.mjs,
 * with the PG* variables of its throwaway server) gives every stack a fresh, randomly named
 * PostgreSQL database, dropped at the end; otherwise a SQLite file in the test's temp dir.
 * A "target" is what the gateway takes as --database: the file path or the postgres:// URL.
 * dbAll/dbGet/dbRun let tests move time (expiry) or inspect invariants with plain SQL (`?` params).
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';

export const TEST_ENGINE: 'sqlite' | 'postgres' = process.env.SVC_TEST_DATABASE === 'postgres' ? 'postgres' : 'sqlite';

export interface TestDatabase {
  /** SQLite file path or postgres:// URL. */
  target: string;
  drop(): Promise<void>;
}

const isPg = (target: string) => /^postgres(ql)?:\/\//.test(target);

/** Counts (int8) as numbers, like SQLite gives them. */
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === 20 ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

function serverUrl(database: string): string {
  const env = process.env;
  const user = encodeURIComponent(env.PGUSER ?? 'postgres');
  const password = env.PGPASSWORD ? `:${encodeURIComponent(env.PGPASSWORD)}` : '';
  return `postgres://${user}${password}@${env.PGHOST ?? '127.0.0.1'}:${env.PGPORT ?? '5432'}/${database}`;
}

async function admin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl(process.env.PGDATABASE ?? 'postgres') });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** A new empty database for one stack: `dir/name.db`, or `svc_test_<random>` on the PostgreSQL server. */
export async function createTestDatabase(dir: string, name = 'gateway'): Promise<TestDatabase> {
  if (TEST_ENGINE === 'sqlite') return { target: join(dir, `${name}.db`), drop: async () => {} };
  const database = `svc_test_${randomBytes(6).toString('hex')}`;
  await admin((c) => c.query(`CREATE DATABASE ${database}`));
  return {
    target: serverUrl(database),
    drop: () => admin((c) => c.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`)).then(() => {}),
  };
}

/** `?` placeholders to PostgreSQL's `$1, $2...` (outside quoted strings). */
function numbered(sql: string): string {
  let n = 0;
  return sql.replace(/'[^']*'|\?/g, (m) => (m === '?' ? `$${++n}` : m));
}

export async function dbAll<T = Record<string, unknown>>(target: string, sql: string, ...params: unknown[]): Promise<T[]> {
  if (!isPg(target)) {
    const db = new BetterSqlite3(target);
    db.pragma('busy_timeout = 5000');
    try {
      const stmt = db.prepare(sql);
      return (stmt.reader ? stmt.all(...params) : (stmt.run(...params), [])) as T[];
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: target, types });
  await client.connect();
  try {
    return (await client.query(numbered(sql), params)).rows as T[];
  } finally {
    await client.end();
  }
}

export async function dbGet<T = Record<string, unknown>>(target: string, sql: string, ...params: unknown[]): Promise<T | undefined> {
  return (await dbAll<T>(target, sql, ...params))[0];
}

export async function dbRun(target: string, sql: string, ...params: unknown[]): Promise<void> {
  await dbAll(target, sql, ...params);
}

/** Makes a payment's expiry a second ago and its next check due now (as if 15 minutes had passed). */
export async function expireNow(target: string, paymentId: string): Promise<void> {
  const past = new Date(Date.now() - 1000).toISOString();
  await dbRun(target, 'UPDATE payments SET expires_at = ?, next_check_at = ? WHERE id = ?', past, past, paymentId);
}
