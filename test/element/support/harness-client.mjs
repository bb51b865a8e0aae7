// web-test-runner side of the test stack: forks harness-process.mjs, forwards page commands
// (executeServerCommand) and the stack's URL paths to it, and serves the strict-CSP test page.
import { fork } from 'node:child_process';
import { Readable } from 'node:stream';

let child = null;
let baseUrl = null;

export async function start() {
  child = fork(new URL('./harness-process.mjs', import.meta.url), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const ready = await new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code) => reject(new Error(`test stack exited with ${code}`)));
  });
  baseUrl = ready.url;
}

export async function stop() {
  if (!child) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.send('stop');
  await exited;
  child = null;
}

export const commandPlugin = {
  name: 'svc-commands',
  async executeCommand({ command, payload }) {
    if (!command.startsWith('svc-')) return undefined;
    const res = await fetch(`${baseUrl}/__command`, { method: 'POST', body: JSON.stringify({ command, payload }) });
    const { result, error } = await res.json();
    if (error) throw new Error(error);
    return result;
  },
};

const FORWARDED = /^\/(gw|log)\/|^\/test\/(session|rpc)$/;

function cspPage(query) {
  const attrs = ['payment-id', 'payment-token', 'base-url', 'api-key', 'amount', 'currency', 'theme', 'locale', 'mode']
    .filter((a) => typeof query[a] === 'string')
    .map((a) => ` ${a}="${String(query[a]).replace(/[^A-Za-z0-9_:/.-]/g, '')}"`)
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Strict CSP</title>
<script src="/test/element/support/csp-probe.js"></script>
<script src="/dist/svc-checkout.js"></script></head>
<body><svc-checkout${attrs}></svc-checkout></body></html>`;
}

/** Koa middleware for the test server. */
export async function middleware(ctx, next) {
  if (ctx.path === '/test/csp.html') {
    ctx.set('Content-Security-Policy', "default-src 'self'");
    ctx.type = 'text/html';
    ctx.body = cspPage(ctx.query);
    return;
  }
  if (!FORWARDED.test(ctx.path)) return next();
  const headers = { ...ctx.headers, 'x-forwarded-origin': ctx.origin };
  delete headers.host;
  let answer;
  try {
    answer = await fetch(baseUrl + ctx.url, {
      method: ctx.method,
      headers,
      body: ctx.method === 'GET' || ctx.method === 'HEAD' ? undefined : Readable.toWeb(ctx.req),
      duplex: 'half',
    });
  } catch {
    // The stack dropped the connection (a stopped gateway): drop the browser's too.
    ctx.req.socket.destroy();
    ctx.respond = false;
    return;
  }
  ctx.status = answer.status;
  answer.headers.forEach((v, k) => {
    if (!['content-length', 'content-encoding', 'transfer-encoding', 'connection', 'keep-alive'].includes(k)) ctx.set(k, v);
  });
  ctx.body = Buffer.from(await answer.arrayBuffer());
}
