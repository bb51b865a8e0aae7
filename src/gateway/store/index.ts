export type * from './store.js';
export { openSqliteStore } from './sqlite.js';
import type { Store } from './store.js';
import { openSqliteStore } from './sqlite.js';

/** Opens the configured engine. PostgreSQL (DATABASE_URL=postgres://...) is not implemented yet. */
export async function openStore(opts: { databasePath: string; databaseUrl?: string | null }): Promise<Store> {
  if (opts.databaseUrl && /^postgres(ql)?:/.test(opts.databaseUrl)) {
    throw new Error('PostgreSQL storage is not available yet in this build; use a SQLite path (--database PATH)');
  }
  return openSqliteStore(opts.databasePath);
}
