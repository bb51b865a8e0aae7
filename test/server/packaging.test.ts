// The packed package, installed with npm into throwaway projects (CommonJS, ESM, TypeScript with
// both module kinds), must load svc-checkout/server and svc-checkout/server/express, work, keep
// error classes shared between the two entries, and load no element, Lit, gateway or Solana code.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startStack } from '../helpers/stack.js';
import { payUrl } from '../../src/localnet/index.js';
import { deadUrl } from './helpers/http.js';

const run = promisify(execFile);
const root = new URL('../..', import.meta.url).pathname;
const TIMEOUT = 240_000;
/** What the server entry must never pull in. */
const FORBIDDEN = /\/node_modules\/(lit|lit-html|lit-element|@lit|qrcode|@solana|litesvm|better-sqlite3|kysely)\/|\/dist\/(element|gateway|localnet|solana)\/|svc-checkout\.m?js$/;

let dir: string;
let pkgDir: string;

async function sh(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}) {
  try {
    return await run(cmd, args, { cwd, env: { ...process.env, ...env }, maxBuffer: 16 * 1024 * 1024, timeout: TIMEOUT });
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${cmd} ${args.join(' ')} failed in ${cwd}\n${e.message}\n${e.stdout ?? ''}\n${e.stderr ?? ''}`);
  }
}

function write(path: string, text: string) {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
}

before(async () => {
  const built = ['dist/server/index.js', 'dist/server/index.cjs', 'dist/server/express/index.cjs', 'dist/server/express/index.d.cts'];
  // Build when dist is missing or older than the SDK's sources (a packed stale build proves nothing).
  const builtAt = Math.min(...built.map((f) => (existsSync(join(root, f)) ? statSync(join(root, f)).mtimeMs : 0)));
  const sources = ['src/server', 'src/core'].flatMap((d) => readdirSync(join(root, d), { recursive: true }).map((f) => join(root, d, String(f))));
  if (sources.some((f) => statSync(f).mtimeMs > builtAt)) await sh('npm', ['run', 'build:node'], root);
  dir = mkdtempSync(join(tmpdir(), 'svc-pack-'));
  // --ignore-scripts: packing must not rebuild (the `prepare` script) while tests run.
  const { stdout } = await sh('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], root);
  const tarball = join(dir, (JSON.parse(stdout) as { filename: string }[])[0]!.filename);
  pkgDir = join(dir, 'app');
  write(join(pkgDir, 'package.json'), JSON.stringify({ name: 'fixture-app', private: true }));
  // Native builds are skipped: the server SDK needs none of the gateway's native modules.
  await sh('npm', ['install', '--ignore-scripts', '--prefer-offline', '--no-audit', '--no-fund', tarball], pkgDir);
}, { timeout: TIMEOUT });

after(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const USAGE = `
const secret = 'whsec_' + Buffer.alloc(32, 7).toString('base64');
const event = { object: 'event', id: 'evt_1', type: 'payment.confirmed', timestamp: new Date().toISOString(), livemode: false, data: { payment: { id: 'pay_1' } } };
const signed = server.webhooks.sign(event, secret);
const verified = server.webhooks.verify(signed.body, signed.headers, secret);
let badCode;
try { server.webhooks.verify(signed.body + ' ', signed.headers, secret); } catch (e) { badCode = e instanceof server.WebhookVerificationError && e instanceof server.SvcError ? e.code : 'wrong class'; }
const client = new server.SvcClient({ apiKey: 'svc_test_abc123', baseUrl: 'http://127.0.0.1:1' });
const result = {
  verified: verified.id,
  badCode,
  client: typeof client.payments.create,
  handlers: [typeof express.createSessionHandler, typeof express.webhookHandler, typeof express.MemorySeenStore],
  version: server.VERSION,
};
`;

test('CommonJS: require() both entries; they work, share error classes, and load only the SDK', { timeout: TIMEOUT }, async () => {
  const app = join(pkgDir, 'cjs');
  write(join(app, 'package.json'), JSON.stringify({ type: 'commonjs' }));
  write(
    join(app, 'index.js'),
    `const server = require('svc-checkout/server');
const express = require('svc-checkout/server/express');
${USAGE}
// The express entry's verify errors are the main entry's classes (one copy of the SDK).
const http = require('node:http');
const loaded = Object.keys(require.cache);
const handler = express.webhookHandler({ secret, onEvent() {}, onError(e) { result.sharedClass = e instanceof server.WebhookVerificationError; } });
// Like express.json() before the handler: the stream is consumed and req.body is an object.
const srv = http.createServer((req, res) => {
  let text = '';
  req.on('data', (c) => (text += c));
  req.on('end', () => { req.body = JSON.parse(text); handler(req, res); });
});
srv.listen(0, '127.0.0.1', async () => {
  const r = await fetch('http://127.0.0.1:' + srv.address().port, { method: 'POST', body: signed.body, headers: signed.headers });
  result.parsedStatus = r.status;
  srv.close();
  console.log(JSON.stringify({ ...result, loaded }));
});
`,
  );
  const { stdout } = await sh(process.execPath, ['index.js'], app);
  const out = JSON.parse(stdout);
  assert.equal(out.verified, 'evt_1');
  assert.equal(out.badCode, 'webhook_bad_signature');
  assert.equal(out.client, 'function');
  assert.deepEqual(out.handlers, ['function', 'function', 'function']);
  assert.equal(out.parsedStatus, 500);
  assert.equal(out.sharedClass, true);
  assert.equal(out.version, JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version);
  const loaded = out.loaded as string[];
  assert.ok(loaded.some((f) => f.endsWith('/node_modules/svc-checkout/dist/server/index.cjs')), loaded.join('\n'));
  assert.deepEqual(loaded.filter((f) => FORBIDDEN.test(f)), []);
  assert.deepEqual(loaded.filter((f) => !f.includes('/node_modules/svc-checkout/dist/server/') && !f.startsWith(app)), []);
});

test('ESM: import both entries; every module resolved is the SDK or a node: builtin', { timeout: TIMEOUT }, async () => {
  const app = join(pkgDir, 'esm');
  const trace = join(app, 'trace.txt');
  write(join(app, 'package.json'), JSON.stringify({ type: 'module' }));
  // A loader hook records every module the program resolves, including those of the package.
  write(
    join(app, 'hooks.mjs'),
    `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  appendFileSync(process.env.TRACE_FILE, result.url + '\\n');
  return result;
}`,
  );
  write(join(app, 'register.mjs'), `import { register } from 'node:module';\nregister('./hooks.mjs', import.meta.url);\n`);
  write(
    join(app, 'index.js'),
    `import * as server from 'svc-checkout/server';
import * as express from 'svc-checkout/server/express';
import { SvcClient, webhooks } from 'svc-checkout/server';
${USAGE}
result.named = SvcClient === server.SvcClient && webhooks === server.webhooks;
console.log(JSON.stringify(result));
`,
  );
  const { stdout } = await sh(process.execPath, ['--import', './register.mjs', 'index.js'], app, { TRACE_FILE: trace });
  const out = JSON.parse(stdout);
  assert.equal(out.verified, 'evt_1');
  assert.equal(out.badCode, 'webhook_bad_signature');
  assert.equal(out.named, true);
  assert.deepEqual(out.handlers, ['function', 'function', 'function']);
  const urls = readFileSync(trace, 'utf8').trim().split('\n');
  assert.ok(urls.some((u) => u.endsWith('/node_modules/svc-checkout/dist/server/index.js')), urls.join('\n'));
  const files = urls.filter((u) => u.startsWith('file:'));
  assert.deepEqual(files.filter((u) => FORBIDDEN.test(u)), []);
  assert.deepEqual(
    files.filter((u) => !/\/node_modules\/svc-checkout\/dist\/(server|core)\//.test(u) && !u.startsWith(`file://${app}`)),
    [],
  );
});

test('TypeScript: .mts and .cts files type-check against the shipped typings (real types, not any) and run', { timeout: TIMEOUT }, async () => {
  const app = join(pkgDir, 'ts');
  write(join(app, 'package.json'), JSON.stringify({ type: 'module' }));
  write(
    join(app, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        outDir: 'out',
        skipLibCheck: false,
        typeRoots: [join(root, 'node_modules/@types')],
        types: ['node'],
      },
      include: ['src'],
    }),
  );
  const body = `
const client = new SvcClient({ apiKey: 'svc_test_abc123', baseUrl: 'http://127.0.0.1:1', timeout: 1000, maxRetries: 0 });
const created: Promise<CreatedPayment> = client.payments.create({ amount: '12.50', currency: 'USDC', orderId: 'A-1' });
created.catch(() => {});
// @ts-expect-error amounts are decimal strings, never numbers
void client.payments.create({ amount: 12.5, currency: 'USDC' }).catch(() => {});
async function all(): Promise<string[]> {
  const ids: string[] = [];
  for await (const p of client.payments.listAll({ status: 'confirmed' })) ids.push(p.id);
  return ids;
}
void all;
function onError(e: unknown): string | undefined {
  if (e instanceof RateLimitError) return String(e.retryAfter);
  if (e instanceof SvcError) return e.code + e.requestId;
  return undefined;
}
void onError;
const secret = 'whsec_' + Buffer.alloc(32, 7).toString('base64');
const signed = webhooks.sign({ type: 'payment.confirmed' }, secret);
const event: PaymentEvent = webhooks.verify(signed.body, signed.headers, secret);
const status: 'pending' | 'processing' | 'confirmed' | 'expired' | 'cancelled' = event.data?.payment?.status ?? 'pending';
const session = createSessionHandler({ client, createPayment: () => ({ amount: '1.00', currency: 'USDC' }) });
const hook = webhookHandler({ secret, onEvent: (e) => { const t: string = e.type; void t; } });
console.log(JSON.stringify({ type: event.type, status, handlers: [typeof session, typeof hook] }));
`;
  write(
    join(app, 'src/esm.mts'),
    `import { SvcClient, SvcError, RateLimitError, webhooks, type CreatedPayment, type PaymentEvent } from 'svc-checkout/server';
import { createSessionHandler, webhookHandler } from 'svc-checkout/server/express';
${body}`,
  );
  write(
    join(app, 'src/cjs.cts'),
    `import { SvcClient, SvcError, RateLimitError, webhooks, type CreatedPayment, type PaymentEvent } from 'svc-checkout/server';
import { createSessionHandler, webhookHandler } from 'svc-checkout/server/express';
${body}`,
  );
  await sh(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', '.'], app);
  for (const file of ['out/esm.mjs', 'out/cjs.cjs']) {
    const { stdout } = await sh(process.execPath, [file], app);
    assert.deepEqual(JSON.parse(stdout), { type: 'payment.confirmed', status: 'pending', handlers: ['function', 'function'] }, file);
  }
  // The CommonJS output really used require() and the .cjs build.
  assert.match(readFileSync(join(app, 'out/cjs.cjs'), 'utf8'), /require\("svc-checkout\/server"\)/);
});

test('docs/server.md: the Express integration runs as written, from a session to a paid order', { timeout: TIMEOUT }, async (t) => {
  const docs = readFileSync(join(root, 'docs/server.md'), 'utf8');
  const section = docs.slice(docs.indexOf('## Express integration'));
  const code = /```js\n([\s\S]*?)```/.exec(section)?.[1];
  assert.ok(code, 'the Express example is in the docs');
  const app = join(pkgDir, 'docs-example');
  write(join(app, 'package.json'), JSON.stringify({ type: 'module' }));
  write(join(app, 'app.js'), code);

  const shopUrl = await deadUrl(); // a port that was just free
  const stack = await startStack({ webhookUrl: `${shopUrl}/webhooks/svc` });
  t.after(() => stack.stop());
  const child = spawn(process.execPath, ['app.js'], {
    cwd: app,
    env: {
      ...process.env,
      SVC_SECRET_KEY: stack.merchant.secretKey,
      SVC_BASE_URL: stack.gatewayUrl,
      SVC_WEBHOOK_SECRET: stack.merchant.webhookSecret,
      PORT: new URL(shopUrl).port,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d));
  child.stderr.on('data', (d: Buffer) => (output += d));
  t.after(() => {
    child.kill();
  });

  const ask = async (orderId: string) => {
    for (let i = 0; ; i++) {
      try {
        const r = await fetch(`${shopUrl}/checkout/session`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ orderId, amount: '0.01' }),
        });
        return { status: r.status, body: (await r.json()) as { payment: { amount: string; url: string }; paymentToken: string } };
      } catch (error) {
        if (i > 100) throw new Error(`the example app did not start: ${output}`, { cause: error });
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  };
  const unknown = await ask('nope');
  assert.equal(unknown.status, 404);
  const session = await ask('A-1');
  assert.equal(session.status, 201, JSON.stringify(session.body));
  assert.equal(session.body.payment.amount, '25.00', 'the price comes from the records');
  assert.match(session.body.paymentToken, /^svc_pt_/);

  await payUrl(session.body.payment.url, { rpcUrl: stack.rpcUrl });
  const end = Date.now() + 30_000;
  while (!output.includes('order A-1 paid')) {
    if (Date.now() > end) throw new Error(`no webhook reached the example app: ${output}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.equal(output.match(/order A-1 paid/g)?.length, 1);
});

test('Express 4 (the oldest peer allowed): both handlers mounted with require(), app-wide urlencoded parser included', { timeout: TIMEOUT }, async () => {
  const app = join(pkgDir, 'express4');
  write(join(app, 'package.json'), JSON.stringify({ name: 'express4-fixture', private: true, type: 'commonjs' }));
  await sh('npm', ['install', '--ignore-scripts', '--prefer-offline', '--no-audit', '--no-fund', 'express@4'], app);
  write(
    join(app, 'index.js'),
    `const express = require('express');
const { SvcClient, webhooks } = require('svc-checkout/server');
const { createSessionHandler, webhookHandler } = require('svc-checkout/server/express');
const secret = 'whsec_' + Buffer.alloc(32, 9).toString('base64');
const received = [];
const app = express();
app.use(express.urlencoded({ extended: false })); // leaves req.body = {} on JSON requests
app.post('/webhooks/svc', webhookHandler({ secret, onEvent: (e) => { received.push(e.id); } }));
const down = new SvcClient({ apiKey: 'svc_test_abc', baseUrl: process.env.DEAD_URL, maxRetries: 0 });
app.post('/checkout/session', express.json(), createSessionHandler({ client: down, onError() {}, createPayment: (req) => ({ amount: req.body.orderId === 'A-1' ? '1.00' : '0', currency: 'USDC' }) }));
const server = app.listen(0, '127.0.0.1', async () => {
  const base = 'http://127.0.0.1:' + server.address().port;
  const signed = webhooks.sign({ object: 'event', id: 'evt_4', type: 'payment.confirmed', data: { payment: {} } }, secret);
  const hook = await fetch(base + '/webhooks/svc', { method: 'POST', body: signed.body, headers: signed.headers });
  const again = await fetch(base + '/webhooks/svc', { method: 'POST', body: signed.body, headers: signed.headers });
  const bad = await fetch(base + '/webhooks/svc', { method: 'POST', body: signed.body + ' ', headers: signed.headers });
  const session = await fetch(base + '/checkout/session', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"orderId":"A-1"}' });
  console.log(JSON.stringify({
    express: require('express/package.json').version,
    hook: [hook.status, again.status, (await again.json()).duplicate, bad.status, (await bad.json()).code],
    received,
    session: [session.status, (await session.json()).code],
  }));
  server.close();
});
`,
  );
  const { stdout } = await sh(process.execPath, ['index.js'], app, { DEAD_URL: await deadUrl() });
  const out = JSON.parse(stdout);
  assert.match(out.express, /^4\./);
  assert.deepEqual(out.hook, [200, 200, true, 400, 'webhook_bad_signature']);
  assert.deepEqual(out.received, ['evt_4']);
  assert.deepEqual(out.session, [502, 'gateway_unavailable']);
});
