// A throwaway PostgreSQL server: initdb in a fresh temp dir, a free port on 127.0.0.1, trust auth
// (only this machine can reach it), fsync off. Used by with-postgres.mjs (the PostgreSQL test pass)
// and by tests that stop and start a server of their own (database outages).
// As root, the server runs as the postgres user (PostgreSQL refuses root).
import { spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

function binDir() {
  const candidates = [];
  if (existsSync('/usr/lib/postgresql')) {
    const versions = readdirSync('/usr/lib/postgresql').filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a));
    candidates.push(...versions.map((v) => `/usr/lib/postgresql/${v}/bin`));
  }
  const fromConfig = spawnSync('pg_config', ['--bindir'], { encoding: 'utf8' });
  if (fromConfig.status === 0) candidates.push(fromConfig.stdout.trim());
  const found = candidates.find((d) => existsSync(join(d, 'initdb')) && existsSync(join(d, 'pg_ctl')));
  if (!found) throw new Error('PostgreSQL server binaries (initdb, pg_ctl) not found: install the postgresql package');
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

/**
 * @param {{ settings?: Record<string, string> }} [options] extra postgresql.conf settings
 */
export async function startPgServer(options = {}) {
  const bin = binDir();
  const runAs = process.getuid?.() === 0 ? 'postgres' : '';
  const run = (tool, args) => {
    const [cmd, argv] = runAs ? ['runuser', ['-u', runAs, '--', join(bin, tool), ...args]] : [join(bin, tool), args];
    return spawnSync(cmd, argv, { encoding: 'utf8' });
  };
  const dir = mkdtempSync(join(tmpdir(), 'svc-pg-'));
  const data = join(dir, 'data');
  if (runAs) {
    const uid = Number(spawnSync('id', ['-u', runAs], { encoding: 'utf8' }).stdout);
    const gid = Number(spawnSync('id', ['-g', runAs], { encoding: 'utf8' }).stdout);
    chownSync(dir, uid, gid);
  }
  const init = run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
  if (init.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`initdb failed: ${init.stderr || init.stdout}`);
  }
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
    ...options.settings,
  };
  const opts = Object.entries(settings).map(([k, v]) => `-c ${k}=${v}`).join(' ');

  const server = {
    host: '127.0.0.1',
    port,
    dataDir: data,
    binDir: bin,
    runAs,
    /** A postgres:// URL of one database on this server. */
    url: (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`,
    /** libpq / node-postgres environment for this server. */
    env: { PGHOST: '127.0.0.1', PGPORT: String(port), PGUSER: 'postgres', PGDATABASE: 'postgres' },
    start() {
      const r = run('pg_ctl', ['-D', data, '-l', join(dir, 'server.log'), '-w', '-t', '60', '-o', opts, 'start']);
      if (r.status !== 0) throw new Error(`PostgreSQL did not start: ${r.stderr || r.stdout}`);
    },
    /** Stops the server: 'fast' disconnects clients cleanly, 'immediate' is like a crash. */
    stop(mode = 'fast') {
      run('pg_ctl', ['-D', data, '-m', mode, '-w', 'stop']);
    },
    /** Stops the server and removes its files. */
    close() {
      server.stop('immediate');
      rmSync(dir, { recursive: true, force: true });
    },
  };
  try {
    server.start();
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return server;
}
