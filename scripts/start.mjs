#!/usr/bin/env node
// `npm start`: the whole thing on one machine, as one process tree.
//   1. the localnet (a local Solana chain) on :8899
//   2. the gateway on :4000, SQLite in data/gateway.db, with a test merchant created on first run
//   3. the demo shop on :3000
// Ctrl-C stops all three. Data in data/ survives restarts; the local chain starts fresh each time.
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { Keypair } from '@solana/web3.js';

const root = new URL('..', import.meta.url).pathname;
const env = process.env;
const ports = { rpc: Number(env.LOCALNET_PORT ?? 8899), gateway: Number(env.GATEWAY_PORT ?? 4000), shop: Number(env.PORT ?? 3000) };
const dataDir = env.DATA_DIR ?? `${root}data`;
const gatewayDb = `${dataDir}/gateway.db`;
const merchantFile = `${dataDir}/demo/merchant.json`;
const children = [];

if (!existsSync(`${root}dist/gateway/cli.js`) || !existsSync(`${root}dist/svc-checkout.js`)) {
  console.log('Building (first run)…');
  execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
}
mkdirSync(`${dataDir}/demo`, { recursive: true });

function run(name, args, extraEnv = {}) {
  const child = spawn(process.execPath, args, { cwd: root, env: { ...env, ...extraEnv }, stdio: ['ignore', 'pipe', 'pipe'] });
  const prefix = (line) => console.log(`[${name}] ${line}`);
  createInterface({ input: child.stderr }).on('line', prefix);
  child.on('exit', (code, signal) => {
    if (!stopping) {
      console.error(`[${name}] exited (${signal ?? code}); stopping everything.`);
      stop(1);
    }
  });
  children.push(child);
  return child;
}

/** Resolves with the first stdout line of a child that prints one JSON line when ready. */
function firstJsonLine(child, name) {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.once('line', (line) => {
      try {
        resolve(JSON.parse(line));
      } catch {
        reject(new Error(`${name} printed ${line}`));
      }
    });
    child.once('exit', () => reject(new Error(`${name} exited before it was ready`)));
  });
}

async function waitForHttp(url, name) {
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${name} did not answer at ${url}`);
}

function cli(bin, args) {
  return execFileSync(process.execPath, [`${root}dist/${bin}/cli.js`, ...args], { cwd: root, encoding: 'utf8' });
}

let stopping = false;
function stop(code = 0) {
  if (stopping) return;
  stopping = true;
  for (const child of children) child.kill('SIGTERM');
  setTimeout(() => process.exit(code), 3000).unref();
  Promise.all(children.map((c) => (c.exitCode !== null || c.signalCode !== null ? null : new Promise((r) => c.once('exit', r))))).then(() => process.exit(code));
}
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));

try {
  const localnet = run('localnet', [`${root}dist/localnet/cli.js`, 'start', '--port', String(ports.rpc), '--json']);
  const { rpcUrl, usdcMint } = await firstJsonLine(localnet, 'localnet');

  // The merchant (test mode) and its wallet are made once and kept in data/demo/merchant.json.
  let merchant = existsSync(merchantFile) ? JSON.parse(readFileSync(merchantFile, 'utf8')) : null;
  if (!merchant) {
    const recipient = Keypair.generate().publicKey.toBase58();
    const created = JSON.parse(
      cli('gateway', ['merchant', 'create', '--database', gatewayDb, '--name', 'Demo shop', '--recipient', recipient,
        '--webhook-url', `http://127.0.0.1:${ports.shop}/webhooks/svc`, '--mode', 'test', '--json']),
    );
    merchant = { ...created, recipient };
    writeFileSync(merchantFile, JSON.stringify(merchant, null, 2), { mode: 0o600 });
  }
  // The chain is new on every start: give the merchant's wallet SOL and its USDC token account again.
  cli('localnet', ['airdrop', merchant.recipient, '--sol', '1', '--usdc', '0.000001', '--rpc', rpcUrl]);

  run('gateway', [`${root}dist/gateway/cli.js`, 'start', '--port', String(ports.gateway), '--database', gatewayDb, '--rpc', rpcUrl, '--currency', `USDC=${usdcMint}`]);
  const gatewayUrl = `http://127.0.0.1:${ports.gateway}`;
  await waitForHttp(`${gatewayUrl}/healthz`, 'gateway');

  run('shop', [`${root}demo/server.mjs`], {
    PORT: String(ports.shop), GATEWAY_URL: gatewayUrl, SOLANA_RPC_URL: rpcUrl,
    SVC_SECRET_KEY: merchant.secretKey, SVC_WEBHOOK_SECRET: merchant.webhookSecret, DEMO_DATA_DIR: `${dataDir}/demo`,
  });
  await waitForHttp(`http://127.0.0.1:${ports.shop}/api/products`, 'shop');

  console.log(`
  svc-checkout is running
    shop       http://127.0.0.1:${ports.shop}
    pay page   http://127.0.0.1:${ports.shop}/dev.html   (pay as a customer from the local chain)
    gateway    ${gatewayUrl}
    localnet   ${rpcUrl}   (USDC mint ${usdcMint})
  Ctrl-C stops everything.`);
} catch (err) {
  console.error(`npm start failed: ${err.message}`);
  stop(1);
}
