#!/usr/bin/env node
// Runs a command against a throwaway PostgreSQL server: initdb in a fresh temp dir, a free port on
// 127.0.0.1, trust auth (nothing else can reach it), fsync off; removed again when the command ends.
// Like pg_virtualenv, but several can run at once (pg_virtualenv as root always names its cluster
// "regress" and refuses a second one), and it tells the command where the server lives:
//   PGHOST PGPORT PGUSER PGDATABASE   connection (libpq / node-postgres read them)
//   SVC_TEST_DATABASE=postgres         the gateway tests then run on PostgreSQL
//   SVC_PG_DATA SVC_PG_BIN SVC_PG_RUN_AS  so a test can stop and start the server (pg_ctl)
// Usage: node scripts/with-postgres.mjs <command> [args...]
import { spawn, spawnSync } from 'node:child_process';
import { chownSync, mkdtempSync, readdirSync, rmSync, existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error('usage: node scripts/with-postgres.mjs <command> [args...]');
  process.exit(2);
}

function binDir() {
  const fromConfig = spawnSync('pg_config', ['--bindir'], { encoding: 'utf8' });
  const candidates = [];
  if (existsSync('/usr/lib/postgresql')) {
    const versions = readdirSync('/usr/lib/postgresql').filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a));
    candidates.push(...versions.map((v) => `/usr/lib/postgresql/${v}/bin`));
  }
  if (fromConfig.status === 0) candidates.push(fromConfig.stdout.trim());
  const found = candidates.find((d) => existsSync(join(d, 'initdb')) && existsSync(join(d, 'postgres')));
  if (!found) throw new Error('PostgreSQL server binaries (initdb, postgres) not found: install the postgresql package');
  return found;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

// PostgreSQL refuses to run as root: as root, run the server as the postgres user.
const isRoot = process.getuid?.() === 0;
const runAs = isRoot ? 'postgres' : '';
const asServerUser = (bin, argv) => (runAs ? ['runuser', ['-u', runAs, '--', bin, ...argv]] : [bin, argv]);

const bin = binDir();
const dir = mkdtempSync(join(tmpdir(), 'svc-pg-'));
const data = join(dir, 'data');
if (isRoot) {
  const id = spawnSync('id', ['-u', runAs], { encoding: 'utf8' });
  const gid = spawnSync('id', ['-g', runAs], { encoding: 'utf8' });
  chownSync(dir, Number(id.stdout), Number(gid.stdout));
}

let server;
let cleaned = false;
function cleanup() {
  if (cleaned) return;
  cleaned = true;
  const [b, a] = asServerUser(join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']);
  spawnSync(b, a, { stdio: 'ignore' });
  server?.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
}

async function main() {
  const [ib, ia] = asServerUser(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
  const init = spawnSync(ib, ia, { encoding: 'utf8' });
  if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr || init.stdout}`);
  const port = await freePort();
  const settings = {
    listen_addresses: '127.0.0.1',
    port: String(port),
    unix_socket_directories: dir,
    fsync: 'off',
    synchronous_commit: 'off',
    full_page_writes: 'off',
    shared_buffers: '128MB',
    max_connections: '400',
  };
  const [pb, pa] = asServerUser(join(bin, 'pg_ctl'), [
    '-D', data, '-l', join(dir, 'server.log'), '-w', '-t', '60',
    '-o', Object.entries(settings).map(([k, v]) => `-c ${k}=${v}`).join(' '),
    'start',
  ]);
  const started = spawnSync(pb, pa, { encoding: 'utf8' });
  if (started.status !== 0) throw new Error(`PostgreSQL did not start: ${started.stderr || started.stdout}`);

  const env = {
    ...process.env,
    PGHOST: '127.0.0.1',
    PGPORT: String(port),
    PGUSER: 'postgres',
    PGDATABASE: 'postgres',
    SVC_TEST_DATABASE: 'postgres',
    SVC_PG_DATA: data,
    SVC_PG_BIN: bin,
    SVC_PG_RUN_AS: runAs,
  };
  delete env.PGPASSWORD;
  const child = spawn(command, args, { stdio: 'inherit', env });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  const code = await new Promise((resolve) => child.on('exit', (c, s) => resolve(s ? 1 : (c ?? 1))));
  cleanup();
  process.exit(code);
}

process.on('exit', cleanup);
main().catch((error) => {
  console.error(`with-postgres: ${error.message}`);
  cleanup();
  process.exit(1);
});
