/**
 * npm run bench:scale [-- --quick]: the gateway scaled out. For SQLite with one instance, then
 * PostgreSQL with one, two and three instances (`svc-gateway start` processes, default watcher and
 * detection settings, rate limits opened since all load comes from one address), it measures:
 *   - public verify: closed loop from wrk (one wrk per instance, 64 connections in all), 1,000 pending
 *     payments being watched: requests/s and p99;
 *   - create: closed loop from wrk (32 connections in all): payments/s and p99;
 *   - 5,000 pending payments watched (--quick: 1,000): RPC calls per minute (svc_rpc_requests_total of
 *     every instance), PostgreSQL transactions per minute (pg_stat_database), and detection latency
 *     (transfer confirmed on chain → payment confirmed) over a few payments.
 * Prints a table with the load average beside each row: the machine is shared. Runs itself under
 * scripts/with-postgres.mjs (a throwaway PostgreSQL server) when no server is given.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Connection, Keypair } from '@solana/web3.js';
import { createMerchant } from '../src/gateway/index.js';
import { airdropOverRpc, payUrl } from '../src/localnet/index.js';
import { spawnGateway, type GatewayProcess } from '../test/helpers/cli.js';
import { createTestDatabase, dbGet, type TestDatabase } from '../test/helpers/db.js';
import { metricValue, parsePrometheus } from '../test/helpers/prometheus.js';

const root = fileURLToPath(new URL('..', import.meta.url));
if (!process.env.SVC_PG_DATA) {
  const r = spawnSync(process.execPath, ['scripts/with-postgres.mjs', process.execPath, '--import', 'tsx', 'bench/scale.ts', ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });
  process.exit(r.status ?? 1);
}

const QUICK = process.argv.includes('--quick');
const WATCHED = QUICK ? 1_000 : 5_000;
const VERIFY_PAYMENTS = 1_000;
const LOAD_SECONDS = QUICK ? 5 : 10;
const WATCH_WINDOW_MS = QUICK ? 15_000 : 30_000;
const DETECTIONS = QUICK ? 4 : 8;
const METRICS_TOKEN = 'bench-scale-metrics-token-0123';
const log = (line: string) => process.stderr.write(`[bench:scale] ${line}\n`);
const load = () => loadavg()[0]!.toFixed(1);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Row {
  setup: string;
  verifyRps: number;
  verifyP99: number;
  createRps: number;
  createP99: number;
  watched: number;
  rpcPerMin: number;
  pgXactPerMin: number | null;
  detectP50: number;
  detectMax: number;
  load: string;
}

async function spawnLocalnet(): Promise<{ rpcUrl: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/localnet/cli.ts', 'start', '--port', '0', '--json'], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  const rpcUrl = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve(JSON.parse(line).rpcUrl);
    });
    child.once('exit', (code) => reject(new Error(`localnet exited ${code}`)));
  });
  return { rpcUrl, child };
}

async function wrk(dir: string, name: string, urls: string[], connections: number, lua: string): Promise<{ rps: number; p99: number }> {
  const script = join(dir, `${name}.lua`);
  await writeFile(script, lua);
  const per = Math.max(1, Math.round(connections / urls.length));
  const outs = await Promise.all(
    urls.map(
      (url) =>
        new Promise<string>((resolve, reject) => {
          const child = spawn('wrk', ['-t1', `-c${per}`, `-d${LOAD_SECONDS}s`, '--latency', '-s', script, url], { stdio: ['ignore', 'pipe', 'inherit'] });
          let text = '';
          child.stdout.on('data', (c: Buffer) => (text += c.toString()));
          child.once('exit', (code) => (code === 0 ? resolve(text) : reject(new Error(`wrk exited ${code}: ${text}`))));
        }),
    ),
  );
  const ms = (v: string, unit: string) => Number(v) * (unit === 'us' ? 0.001 : unit === 's' ? 1000 : 1);
  let rps = 0;
  let p99 = 0;
  for (const out of outs) {
    rps += Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? NaN);
    const m = /^\s*99%\s+([\d.]+)(us|ms|s)/m.exec(out);
    p99 = Math.max(p99, m ? ms(m[1]!, m[2]!) : NaN); // the worst instance's p99
    const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0);
    if (non2xx) log(`${name}: ${non2xx} answers were not 2xx`);
  }
  return { rps, p99 };
}

async function rpcCalls(instances: GatewayProcess[]): Promise<number> {
  let sum = 0;
  for (const p of instances) {
    const res = await fetch(`${p.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    sum += metricValue(parsePrometheus(await res.text()), 'svc_rpc_requests_total');
  }
  return sum;
}

async function pgTransactions(db: TestDatabase): Promise<number | null> {
  if (!/^postgres/.test(db.target)) return null;
  const row = await dbGet<{ n: number }>(db.target, 'SELECT xact_commit AS n FROM pg_stat_database WHERE datname = current_database()');
  return Number(row!.n);
}

async function createPayments(urls: string[], key: string, n: number): Promise<{ id: string; paymentToken: string; url: string }[]> {
  const out: { id: string; paymentToken: string; url: string }[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: 32 }, async (_, w) => {
      while (next < n) {
        next++;
        const res = await fetch(`${urls[w % urls.length]}/api/v1/payments`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ amount: '0.001', currency: 'SOL', expiresIn: 3600 }),
        });
        if (res.status !== 201) throw new Error(`create: ${res.status} ${await res.text()}`);
        out.push((await res.json()) as { id: string; paymentToken: string; url: string });
      }
    }),
  );
  return out;
}

async function runSetup(engine: 'sqlite' | 'postgres', count: number, rpcUrl: string, dir: string): Promise<Row> {
  const setup = `${engine === 'sqlite' ? 'SQLite' : 'PostgreSQL'}, ${count} instance${count > 1 ? 's' : ''}`;
  log(`${setup}: starting (load ${load()})`);
  const db: TestDatabase = engine === 'sqlite' ? { target: join(dir, `scale-${Date.now()}.db`), drop: async () => {} } : await createTestDatabase(dir);
  const wallet = Keypair.generate();
  await airdropOverRpc(new Connection(rpcUrl, 'confirmed'), wallet.publicKey.toBase58(), { sol: 1 });
  const merchant = await createMerchant({ databasePath: db.target }, { name: 'Scale Shop', recipient: wallet.publicKey.toBase58() });
  const env = {
    DATABASE_URL: db.target,
    SOLANA_RPC_URL: rpcUrl,
    METRICS_TOKEN,
    RATE_LIMIT_PER_CLIENT: '1000000,1000000',
    RATE_LIMIT_PER_PAYMENT: '1000000,1000000',
  };
  const instances: GatewayProcess[] = [];
  try {
    for (let i = 0; i < count; i++) instances.push(await spawnGateway(['--database', db.target], env));
    const urls = instances.map((p) => p.url);

    const verifyPayments = await createPayments(urls, merchant.secretKey, VERIFY_PAYMENTS);
    log(`${setup}: public verify, wrk 64 connections, ${LOAD_SECONDS} s (load ${load()})`);
    const verify = await wrk(dir, 'verify', urls, 64,
      `local ids = {${verifyPayments.map((p) => `"${p.id}"`).join(',')}}\nlocal tokens = {${verifyPayments.map((p) => `"${p.paymentToken}"`).join(',')}}\n` +
        `local i = math.random(#ids)\nrequest = function()\n  i = i % #ids + 1\n  return wrk.format("POST", "/api/public/payments/" .. ids[i] .. "/verify", {["x-service-payment-token"] = tokens[i]}, "")\nend\n`);
    log(`${setup}: create, wrk 32 connections, ${LOAD_SECONDS} s (load ${load()})`);
    const create = await wrk(dir, 'create', urls, 32,
      `request = function()\n  return wrk.format("POST", "/api/v1/payments", {["authorization"] = "Bearer ${merchant.secretKey}", ["content-type"] = "application/json"}, '{"amount":"0.001","currency":"SOL","expiresIn":3600}')\nend\n`);

    const have = Number((await dbGet<{ n: number }>(db.target, "SELECT count(*) AS n FROM payments WHERE status = 'pending'"))!.n);
    if (have < WATCHED) await createPayments(urls, merchant.secretKey, WATCHED - have);
    const watched = Number((await dbGet<{ n: number }>(db.target, "SELECT count(*) AS n FROM payments WHERE status = 'pending'"))!.n);
    log(`${setup}: ${watched} pending watched; measuring RPC and database work for ${WATCH_WINDOW_MS / 1000} s (load ${load()})`);
    await sleep(5_000);
    const [rpc0, x0, t0] = [await rpcCalls(instances), await pgTransactions(db), Date.now()];
    await sleep(WATCH_WINDOW_MS);
    const [rpc1, x1, t1] = [await rpcCalls(instances), await pgTransactions(db), Date.now()];
    const perMin = (a: number, b: number) => ((b - a) * 60_000) / (t1 - t0);

    log(`${setup}: detection latency over ${DETECTIONS} payments (load ${load()})`);
    const latencies: number[] = [];
    const targets = (await createPayments(urls, merchant.secretKey, DETECTIONS)).slice(0, DETECTIONS);
    for (const p of targets) {
      await sleep(Math.random() * 1500);
      await payUrl(p.url, { rpcUrl });
      const sent = Date.now();
      for (;;) {
        const row = await dbGet<{ status: string }>(db.target, 'SELECT status FROM payments WHERE id = ?', p.id);
        if (row?.status === 'confirmed') break;
        if (Date.now() - sent > 60_000) throw new Error(`${p.id} not confirmed within 60 s`);
        await sleep(20);
      }
      latencies.push(Date.now() - sent);
    }
    latencies.sort((a, b) => a - b);
    return {
      setup,
      verifyRps: verify.rps,
      verifyP99: verify.p99,
      createRps: create.rps,
      createP99: create.p99,
      watched,
      rpcPerMin: perMin(rpc0, rpc1),
      pgXactPerMin: x0 === null || x1 === null ? null : perMin(x0, x1),
      detectP50: latencies[Math.floor(latencies.length / 2)]!,
      detectMax: latencies[latencies.length - 1]!,
      load: load(),
    };
  } finally {
    for (const p of instances) {
      p.child.kill('SIGTERM');
      await p.exited;
    }
    await db.drop();
  }
}

async function main() {
  const dir = await mkdtemp(join(tmpdir(), 'svc-scale-'));
  const localnet = await spawnLocalnet();
  const rows: Row[] = [];
  try {
    rows.push(await runSetup('sqlite', 1, localnet.rpcUrl, dir));
    for (const n of [1, 2, 3]) rows.push(await runSetup('postgres', n, localnet.rpcUrl, dir));
  } finally {
    localnet.child.kill('SIGTERM');
    await rm(dir, { recursive: true, force: true });
  }
  const f = (n: number, d = 0) => (Number.isFinite(n) ? n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d }) : '–');
  console.log(`\nbench:scale ${QUICK ? '(quick) ' : ''}${new Date().toISOString()}, ${WATCHED.toLocaleString('en-US')} pending watched\n`);
  console.log('| setup | verify req/s | verify p99 ms | create/s | create p99 ms | pending watched | RPC calls/min | RPC/min per pending | PG transactions/min | detection p50 / max ms | load (1 min) |');
  console.log('|---|---|---|---|---|---|---|---|---|---|---|');
  for (const r of rows) {
    console.log(
      `| ${r.setup} | ${f(r.verifyRps)} | ${f(r.verifyP99, 1)} | ${f(r.createRps)} | ${f(r.createP99, 1)} | ${f(r.watched)} | ${f(r.rpcPerMin)} | ${f(r.rpcPerMin / r.watched, 2)} | ${r.pgXactPerMin === null ? 'n/a' : f(r.pgXactPerMin)} | ${f(r.detectP50)} / ${f(r.detectMax)} | ${r.load} |`,
    );
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
