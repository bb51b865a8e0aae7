/** Direct access to a gateway's SQLite file, for tests that need to move time (expiry) or inspect invariants. */
import BetterSqlite3 from 'better-sqlite3';

export function withDb<T>(dbPath: string, fn: (db: BetterSqlite3.Database) => T): T {
  const db = new BetterSqlite3(dbPath);
  db.pragma('busy_timeout = 5000');
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

/** Makes a payment's expiry a second ago and its next check due now (as if 15 minutes had passed). */
export function expireNow(dbPath: string, paymentId: string): void {
  const past = new Date(Date.now() - 1000).toISOString();
  withDb(dbPath, (db) => db.prepare('UPDATE payments SET expires_at = ?, next_check_at = ? WHERE id = ?').run(past, past, paymentId));
}
