/**
 * A gateway cluster for fault tests: a localnet, a TCP proxy in front of its RPC that can be switched
 * to fail, one PostgreSQL database (the throwaway server of scripts/with-postgres.mjs), a webhook
 * receiver, and N `svc-gateway start` child processes that can be SIGKILLed and restarted.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Keypair } from '@solana/web3.js';
import { createMerchant, type MerchantCredentials } from '../../src/gateway/index.js';
import { startLocalnet, type Localnet } from '../../src/localnet/index.js';
import { spawnGateway, type GatewayProcess } from '../helpers/cli.js';
import { createTestDatabase, TEST_ENGINE, type TestDatabase } from '../helpers/db.js';
import { api, sleep, type ApiRequest, type ApiResponse } from '../helpers/http.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';

/** The resilience tests need PostgreSQL (several instances share it): run them under scripts/with-postgres.mjs. */
export const HAS_POSTGRES = TEST_ENGINE === 'postgres' && Boolean(process.env.SVC_PG_DATA);

export type ProxyMode = 'pass' | 'error' | 'hang' | 'reset';

/** A real TCP proxy: passes bytes through, or answers HTTP 503, or accepts and never answers, or resets. */
export async function startRpcProxy(targetPort: number): Promise<{ url: string; mode: ProxyMode; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const state = { mode: 'pass' as ProxyMode };
  const server: Server = createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => {});
    const mode = state.mode;
    if (mode === 'reset') return void client.resetAndDestroy();
    if (mode === 'hang') return; // read nothing, answer nothing: the caller's deadline must fire
    if (mode === 'error') {
      client.once('data', () => {
        const body = '{"jsonrpc":"2.0","error":{"code":-32603,"message":"proxy in error mode"},"id":null}';
        client.end(`HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n${body}`);
      });
      return;
    }
    const upstream = connect(targetPort, '127.0.0.1');
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    get mode() {
      return state.mode;
    },
    set mode(m: ProxyMode) {
      state.mode = m;
      // Kept-alive connections would carry on in the old mode: cut them all.
      for (const s of sockets) s.destroy();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Fast settings so that faults and recoveries take seconds, not minutes. */
export const FAST_ENV: Record<string, string> = {
  WATCHER_TICK_MS: '50',
  WATCHER_MIN_CHECK_INTERVAL_MS: '250',
  CHECK_LEASE_MS: '2000',
  WEBHOOK_RETRY_SCHEDULE_MS: Array(30).fill('300').join(','),
  WEBHOOK_TIMEOUT_MS: '2000',
  WEBHOOK_LEASE_MS: '3000',
  RPC_TIMEOUT_MS: '1500',
  LATE_WATCH_INTERVAL_MS: '500',
  RATE_LIMIT_PER_CLIENT: '5000,10000',
  RATE_LIMIT_PER_PAYMENT: '100,200',
  DATABASE_POOL_SIZE: '5',
  METRICS_TOKEN: 'resilience-metrics-token-0123',
  IDEMPOTENCY_LOCK_MS: '3000',
};

export interface Cluster {
  localnet: Localnet;
  proxy: Awaited<ReturnType<typeof startRpcProxy>>;
  receiver: Receiver;
  database: TestDatabase;
  merchant: MerchantCredentials & { recipient: string };
  instances: (GatewayProcess | null)[];
  /** Starts instance i (again); resolves when it listens. */
  start(i: number): Promise<GatewayProcess>;
  kill(i: number): Promise<void>;
  /** An API call to any live instance, trying the next one when an instance is down. */
  call<T = any>(path: string, req?: ApiRequest): Promise<ApiResponse<T>>; // eslint-disable-line @typescript-eslint/no-explicit-any
  stop(): Promise<void>;
}

export async function startCluster(size: number, env: Record<string, string> = {}): Promise<Cluster> {
  const localnet = await startLocalnet({ port: 0, slotMs: 50 });
  const proxy = await startRpcProxy(Number(new URL(localnet.rpcUrl).port));
  const receiver = await startReceiver();
  const dir = await mkdtemp(join(tmpdir(), 'svc-resilience-'));
  const database = await createTestDatabase(dir);
  const wallet = Keypair.generate();
  const recipient = wallet.publicKey.toBase58();
  await localnet.airdrop(recipient, { sol: 1, usdc: 0 });
  const created = await createMerchant({ databasePath: database.target }, { name: 'Resilience Shop', recipient, webhookUrl: receiver.url });
  const merchant = { ...created, recipient };
  const instances: (GatewayProcess | null)[] = Array(size).fill(null);
  const childEnv = { ...FAST_ENV, ...env, DATABASE_URL: database.target, SOLANA_RPC_URL: proxy.url };

  const cluster: Cluster = {
    localnet,
    proxy,
    receiver,
    database,
    merchant,
    instances,
    async start(i) {
      const p = await spawnGateway([], childEnv);
      instances[i] = p;
      return p;
    },
    async kill(i) {
      const p = instances[i];
      instances[i] = null;
      if (!p) return;
      p.child.kill('SIGKILL');
      await p.exited;
    },
    async call(path, req = {}) {
      let lastError: unknown;
      // Long enough for a key left unfinished by a killed instance to be taken over (IDEMPOTENCY_LOCK_MS).
      const deadline = Date.now() + 30_000;
      for (let attempt = 0; Date.now() < deadline; attempt++) {
        const live = instances.filter((p): p is GatewayProcess => p !== null);
        const p = live[(attempt + Math.floor(Math.random() * live.length)) % Math.max(1, live.length)];
        if (!p) {
          await sleep(100);
          continue;
        }
        try {
          const res = await api(p.url, path, { key: merchant.secretKey, ...req });
          if (res.status < 500 && !(res.status === 409 && res.body?.code === 'idempotency_key_in_use')) return res;
          lastError = new Error(`${res.status} ${res.text}`);
        } catch (error) {
          lastError = error; // killed instance: try another
        }
        await sleep(100);
      }
      throw lastError;
    },
    async stop() {
      await Promise.all(instances.map((_, i) => cluster.kill(i)));
      await receiver.close();
      await proxy.close();
      await localnet.close();
      await database.drop();
      await rm(dir, { recursive: true, force: true });
    },
  };
  try {
    await Promise.all(instances.map((_, i) => cluster.start(i)));
  } catch (error) {
    await cluster.stop();
    throw error;
  }
  return cluster;
}

/** Stops the PostgreSQL server of scripts/with-postgres.mjs, and starts it again with the same settings. */
export function postgresControl(): { stop(): void; start(): void } {
  const data = process.env.SVC_PG_DATA!;
  const bin = process.env.SVC_PG_BIN!;
  const runAs = process.env.SVC_PG_RUN_AS ?? '';
  // The server was started with -c settings on the command line (postmaster.opts keeps them).
  const opts = readFileSync(join(data, 'postmaster.opts'), 'utf8');
  const settings = [...opts.matchAll(/"-c" "([^"]+)"/g)].map((m) => `-c ${m[1]}`).join(' ');
  const pgCtl = (args: string[]) => {
    const [cmd, argv] = runAs ? ['runuser', ['-u', runAs, '--', join(bin, 'pg_ctl'), ...args]] : [join(bin, 'pg_ctl'), args];
    const r = spawnSync(cmd, argv, { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`pg_ctl ${args.join(' ')} failed: ${r.stderr || r.stdout}`);
  };
  return {
    stop: () => pgCtl(['-D', data, '-m', 'fast', '-w', 'stop']),
    start: () => pgCtl(['-D', data, '-l', join(data, '..', 'server.log'), '-w', '-t', '60', '-o', settings, 'start']),
  };
}
