// The stack behind the browser tests, run in its own Node process by harness-process.mjs (so the
// chain's native code and CPU work stay out of web-test-runner's process): the REAL localnet and gateway (from dist/, built by
// `npm run build:node`), a merchant-style session endpoint, a same-origin proxy to the gateway (so a
// test can log requests, or see the gateway go away), and commands the page sends with
// `executeServerCommand` (create, pay, cancel, stop/start the gateway...).
// Everything listens on 127.0.0.1, port 0, and is closed in stop().
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Keypair } from '@solana/web3.js';

const root = new URL('../../../', import.meta.url);
const GATEWAY_JS = new URL('dist/gateway/index.js', root);
const LOCALNET_JS = new URL('dist/localnet/index.js', root);

const state = {
  dir: null,
  localnet: null,
  /** name → { options, gateway (null while stopped), merchant, port } */
  gateways: new Map(),
  /** Requests that reached /log/ or /gw/ (method, path, headers, body), for "nothing was sent" checks. */
  requests: [],
  /** Bodies the session endpoint received. */
  sessionBodies: [],
  problem: null,
};

export function available() {
  return existsSync(GATEWAY_JS) && existsSync(LOCALNET_JS);
}

async function startNamedGateway(name, recipient, extra = {}) {
  const { startGateway, createMerchant } = await import(pathToFileURL(GATEWAY_JS.pathname).href);
  const databasePath = join(state.dir, `${name}.db`);
  const merchant = await createMerchant({ databasePath }, { name: `Test Shop ${name}`, recipient, mode: 'test' });
  const options = {
    rpcUrl: state.localnet.rpcUrl,
    databasePath,
    port: 0,
    currencies: [{ symbol: 'USDC', mint: state.localnet.usdcMint }],
    // Quick checks for tests; bench/element.mjs sets SVC_GATEWAY_DEFAULTS=1 to measure the shipped settings.
    ...(process.env.SVC_GATEWAY_DEFAULTS ? {} : { watcher: { tickMs: 100, minCheckIntervalMs: 200 } }),
    log: () => {},
    ...extra,
  };
  const gateway = await startGateway(options);
  state.gateways.set(name, { options, gateway, merchant, port: gateway.port, databasePath });
}

export async function start() {
  if (!available()) {
    state.problem = 'dist/gateway or dist/localnet missing: run npm run build:node';
    console.warn(`[element tests] ${state.problem}; tests needing them will fail.`);
    return;
  }
  state.dir = mkdtempSync(join(tmpdir(), 'svc-element-'));
  const { startLocalnet } = await import(pathToFileURL(LOCALNET_JS.pathname).href);
  // 50 ms slots (mainnet: 400) keep confirmations quick.
  state.localnet = await startLocalnet({ port: 0, slotMs: Number(process.env.SVC_SLOT_MS || 50) });
  // Merchant wallets: SOL for rent and a USDC token account, as a real merchant wallet has.
  const wallets = [Keypair.generate().publicKey.toBase58(), Keypair.generate().publicKey.toBase58()];
  for (const w of wallets) await state.localnet.airdrop(w, { sol: 1, usdc: 0 });
  await startNamedGateway('main', wallets[0]);
  // A second gateway with a tight per-payment limit, so the element meets a real 429 quickly.
  await startNamedGateway('strict', wallets[1], { rateLimits: { perPayment: { ratePerSecond: 0.25, burst: 2 } } });
}

export async function stop() {
  for (const g of state.gateways.values()) await g.gateway?.close();
  state.gateways.clear();
  await state.localnet?.close();
  if (state.dir) rmSync(state.dir, { recursive: true, force: true });
}

function gw(name = 'main') {
  const g = state.gateways.get(name);
  if (!g) throw new Error(state.problem ?? `no gateway ${name}`);
  return g;
}

async function gatewayFetch(name, path, init = {}) {
  const g = gw(name);
  const res = await fetch(`http://127.0.0.1:${g.port}${path}`, {
    ...init,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${g.merchant.secretKey}`, ...init.headers },
  });
  const body = await res.json();
  if (!res.ok) throw new Error(`gateway ${path}: ${res.status} ${JSON.stringify(body)}`);
  return body;
}

/** Creates a payment as a merchant backend would, and answers what its session endpoint would. */
async function createSession({ gateway = 'main', amount = '1.25', currency = 'USDC', baseUrl, ...rest } = {}) {
  const created = await gatewayFetch(gateway, '/api/v1/payments', { method: 'POST', body: JSON.stringify({ amount, currency, ...rest }) });
  const g = gw(gateway);
  const res = await fetch(`http://127.0.0.1:${g.port}/api/public/payments/${created.id}/verify`, {
    method: 'POST',
    headers: { 'x-service-payment-token': created.paymentToken },
  });
  const payment = await res.json();
  return { paymentId: created.id, paymentToken: created.paymentToken, baseUrl: baseUrl ?? g.gateway?.url ?? `http://127.0.0.1:${g.port}`, payment };
}

const commands = {
  'svc-info': () => ({
    available: available() && !!state.localnet,
    problem: state.problem,
    gateways: Object.fromEntries([...state.gateways].map(([n, g]) => [n, `http://127.0.0.1:${g.port}`])),
    publishableKey: state.gateways.get('main')?.merchant.publishableKey ?? null,
    secretKey: state.gateways.get('main')?.merchant.secretKey ?? null,
  }),
  'svc-create-session': (p) => createSession(p),
  'svc-pay': async ({ url }) => {
    const { payUrl } = await import(pathToFileURL(LOCALNET_JS.pathname).href);
    return payUrl(url, { rpcUrl: state.localnet.rpcUrl });
  },
  'svc-get-payment': ({ gateway = 'main', id }) => gatewayFetch(gateway, `/api/v1/payments/${id}`),
  'svc-cancel': ({ gateway = 'main', id }) => gatewayFetch(gateway, `/api/v1/payments/${id}/cancel`, { method: 'POST', body: '{}' }),
  /**
   * Makes a payment's expiry time arrive now, instead of waiting the gateway's 60 s minimum: moves
   * expires_at into the past in the gateway's own database. The gateway then expires it by its own rules.
   */
  'svc-expire-now': async ({ gateway = 'main', id }) => {
    const { default: Database } = await import('better-sqlite3');
    const db = new Database(gw(gateway).databasePath);
    try {
      db.prepare('UPDATE payments SET expires_at = ? WHERE id = ?').run(new Date(Date.now() - 1000).toISOString(), id);
    } finally {
      db.close();
    }
    return true;
  },
  'svc-gateway-stop': async ({ gateway = 'main' }) => {
    const g = gw(gateway);
    await g.gateway.close();
    g.gateway = null;
    return true;
  },
  'svc-gateway-start': async ({ gateway = 'main', ifStopped = false }) => {
    const g = gw(gateway);
    if (ifStopped && g.gateway) return true;
    const { startGateway } = await import(pathToFileURL(GATEWAY_JS.pathname).href);
    // Same port and database: to the browser it is the same gateway coming back.
    g.gateway = await startGateway({ ...g.options, port: g.port });
    return true;
  },
  'svc-airdrop': ({ address, sol = 1, usdc = 0 }) => state.localnet.airdrop(address, { sol, usdc }).then(() => true),
  'svc-requests': () => state.requests,
  'svc-session-bodies': () => state.sessionBodies,
  'svc-clear-log': () => {
    state.requests.length = 0;
    state.sessionBodies.length = 0;
    return true;
  },
};

export async function runCommand(command, payload) {
  const fn = commands[command];
  if (!fn) throw new Error(`unknown command ${command}`);
  return (await fn(payload ?? {})) ?? null;
}

async function readBody(req) {
  const chunks = [];
  for await (const c of req) chunks.push(c);
  return Buffer.concat(chunks).toString('utf8');
}

function send(res, status, type, body, headers = {}) {
  res.writeHead(status, { 'content-type': type, ...headers });
  res.end(body);
}

/**
 * node:http handler, reached through the test server (web-test-runner.config.mjs forwards these paths):
 *  - POST /test/session?gateway=&amount=&currency=&proxy=  a merchant's session endpoint (secret key stays here);
 *  - /gw/<name>/...  a same-origin proxy to gateway <name>; a stopped gateway drops the connection;
 *  - /log/...        records the request and answers 404 (a place where nothing should ever arrive);
 *  - POST /test/rpc  forwards JSON-RPC to the localnet (the test wallet sends its transaction here).
 * `origin` is the test page's origin (x-forwarded-origin), for proxy base URLs.
 */
export async function handle(req, res) {
  const url = new URL(req.url, 'http://x');
  const path = url.pathname;
  const origin = req.headers['x-forwarded-origin'] ?? '';
  if (path.startsWith('/log/') || path.startsWith('/gw/')) {
    const body = req.method === 'GET' || req.method === 'HEAD' ? '' : await readBody(req);
    const headers = { ...req.headers };
    for (const h of ['host', 'content-length', 'connection', 'x-forwarded-origin']) delete headers[h];
    const entry = { method: req.method, url: req.url, headers, body, at: Date.now(), status: null, retryAfter: null };
    state.requests.push(entry);
    if (path.startsWith('/log/')) return send(res, 404, 'text/plain', '');
    const [, , name, ...rest] = path.split('/');
    const g = state.gateways.get(name);
    const answer = g?.gateway
      ? await fetch(`http://127.0.0.1:${g.port}/${rest.join('/')}${url.search}`, { method: req.method, headers, body: body || undefined }).catch(() => null)
      : null;
    if (!answer) {
      req.socket.destroy(); // to the browser: the gateway is unreachable
      return;
    }
    entry.status = answer.status;
    entry.retryAfter = answer.headers.get('retry-after');
    const out = {};
    for (const h of ['retry-after', 'x-request-id', 'cache-control', 'access-control-allow-origin', 'access-control-expose-headers']) {
      if (answer.headers.get(h)) out[h] = answer.headers.get(h);
    }
    return send(res, answer.status, answer.headers.get('content-type') ?? 'application/octet-stream', Buffer.from(await answer.arrayBuffer()), out);
  }
  if (path === '/test/session' && req.method === 'POST') {
    const raw = await readBody(req);
    state.sessionBodies.push({ body: raw, contentType: req.headers['content-type'], cookie: req.headers.cookie ?? '' });
    const q = Object.fromEntries(url.searchParams);
    try {
      const session = await createSession({
        gateway: q.gateway || 'main',
        amount: q.amount || '1.25',
        currency: q.currency || 'USDC',
        ...(q.proxy ? { baseUrl: `${origin}/gw/${q.gateway || 'main'}` } : {}),
      });
      // ?leak=1 plays a broken backend that puts its secret key where the payment token goes.
      if (q.leak) session.paymentToken = gw(q.gateway || 'main').merchant.secretKey;
      return send(res, 200, 'application/json', JSON.stringify(session));
    } catch (err) {
      const problem = { type: 'about:blank', title: 'Bad Gateway', status: 502, detail: String(err.message), code: 'test_session_failed' };
      return send(res, 502, 'application/problem+json', JSON.stringify(problem));
    }
  }
  if (path === '/test/rpc' && req.method === 'POST') {
    const raw = await readBody(req);
    const answer = await fetch(state.localnet.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: raw });
    return send(res, 200, 'application/json', await answer.text());
  }
  return send(res, 404, 'text/plain', 'not found');
}
