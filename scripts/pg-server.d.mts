/** Types of pg-server.mjs, for the TypeScript tests that start a PostgreSQL server of their own. */
export interface PgServer {
  host: string;
  port: number;
  dataDir: string;
  binDir: string;
  /** 'postgres' when the server runs as that user (we are root), else ''. */
  runAs: string;
  url(database?: string): string;
  env: { PGHOST: string; PGPORT: string; PGUSER: string; PGDATABASE: string };
  start(): void;
  stop(mode?: 'fast' | 'immediate' | 'smart'): void;
  close(): void;
}

export function startPgServer(options?: { settings?: Record<string, string> }): Promise<PgServer>;
