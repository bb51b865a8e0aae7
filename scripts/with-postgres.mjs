#!/usr/bin/env node
// Runs a command against a throwaway PostgreSQL server (pg-server.mjs), removed when the command ends.
// Like pg_virtualenv, but several can run at once (pg_virtualenv as root always names its cluster
// "regress" and refuses a second one), and it tells the command where the server lives:
//   PGHOST PGPORT PGUSER PGDATABASE       connection (libpq / node-postgres read them)
//   SVC_TEST_DATABASE=postgres             the gateway tests then run on PostgreSQL
//   SVC_PG_DATA SVC_PG_BIN SVC_PG_RUN_AS   where the server's files and tools are
// Usage: node scripts/with-postgres.mjs <command> [args...]
import { spawn } from 'node:child_process';
import { startPgServer } from './pg-server.mjs';

const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error('usage: node scripts/with-postgres.mjs <command> [args...]');
  process.exit(2);
}

let server;
let closed = false;
function cleanup() {
  if (closed || !server) return;
  closed = true;
  server.close();
}
process.on('exit', cleanup);

try {
  server = await startPgServer();
} catch (error) {
  console.error(`with-postgres: ${error.message}`);
  process.exit(1);
}
const env = {
  ...process.env,
  ...server.env,
  SVC_TEST_DATABASE: 'postgres',
  SVC_PG_DATA: server.dataDir,
  SVC_PG_BIN: server.binDir,
  SVC_PG_RUN_AS: server.runAs,
};
delete env.PGPASSWORD;
const child = spawn(command, args, { stdio: 'inherit', env });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
const code = await new Promise((resolve) => child.on('exit', (c, s) => resolve(s ? 1 : (c ?? 1))));
cleanup();
process.exit(code);
