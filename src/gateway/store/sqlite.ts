/** The SQLite engine: one file, WAL journal, Kysely over better-sqlite3. */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import type { Database } from './schema.js';
import { KyselyStore } from './kysely-store.js';

function isSqliteUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/**
 * Kysely prepares every query anew; preparing costs more than running these small queries, and the
 * gateway issues a few dozen distinct SQL strings only. So statements are prepared once and reused
 * (better-sqlite3 statements are reusable; the driver runs one query at a time).
 */
function withStatementCache(database: BetterSqlite3.Database) {
  const cache = new Map<string, BetterSqlite3.Statement>();
  return {
    close: () => database.close(),
    prepare(sql: string) {
      let stmt = cache.get(sql);
      if (!stmt) {
        stmt = database.prepare(sql);
        if (cache.size > 500) cache.clear(); // a bound, in case queries are ever built with inlined values
        cache.set(sql, stmt);
      }
      return stmt;
    },
  };
}

export async function openSqliteStore(path: string): Promise<KyselyStore> {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const database = new BetterSqlite3(path);
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  database.pragma('foreign_keys = ON');
  // Another process (the CLI creating a merchant) may hold the write lock briefly.
  database.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(database) }) });
  const store = new KyselyStore(db, isSqliteUniqueViolation, 'sqlite');
  await store.migrate();
  // One gateway per SQLite file: a check lease left by a killed process has no owner any more.
  await db.updateTable('payments').set({ checking_until: null }).where('checking_until', 'is not', null).execute();
  return store;
}
