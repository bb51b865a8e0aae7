export type * from './store.js';
export { openSqliteStore } from './sqlite.js';
export { openPostgresStore, isPostgresUrl } from './postgres.js';
import type { Store } from './store.js';
import { openSqliteStore } from './sqlite.js';
import { isPostgresUrl, openPostgresStore } from './postgres.js';

export interface StoreConfig {
  /** SQLite file, or a postgres:// URL. */
  databasePath: string;
  /** postgres://... (wins over databasePath). */
  databaseUrl?: string | null;
  /** PostgreSQL connections per instance. */
  databasePoolSize?: number;
  /** How long PostgreSQL calls (and opening) keep retrying while the database is unreachable (default 15 s). */
  databaseRetryMs?: number;
  log?: (line: string) => void;
}

/** Opens the configured engine: PostgreSQL for a postgres:// URL, else the SQLite file. */
export async function openStore(opts: StoreConfig): Promise<Store> {
  const url = isPostgresUrl(opts.databaseUrl) ? opts.databaseUrl : isPostgresUrl(opts.databasePath) ? opts.databasePath : null;
  if (url) {
    return openPostgresStore(url, {
      ...(opts.databasePoolSize !== undefined && { poolSize: opts.databasePoolSize }),
      ...(opts.databaseRetryMs !== undefined && { retryForMs: opts.databaseRetryMs }),
      ...(opts.log && { log: opts.log }),
    });
  }
  return openSqliteStore(opts.databasePath);
}
