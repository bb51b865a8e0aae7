// docs/embedding.md is for people who copy its snippets as they are, so the snippets are run here:
//  - the curl walk-through (between its curl-walkthrough markers) by bash against a real gateway;
//  - its Content-Security-Policy line and `npm run sri`'s hash, in Chromium: the element loaded from another
//    origin (a "CDN") with integrity, under that policy, talking to a session endpoint that answers the
//    minimal contract ({paymentId, paymentToken, baseUrl}); and a wrong hash keeps the script out.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'puppeteer-core';
import { startStack, type Stack } from '../helpers/stack.js';
import { launchChromium, openWatchedPage } from './support/browser.js';

const root = new URL('../..', import.meta.url).pathname;
const doc = readFileSync(join(root, 'docs/embedding.md'), 'utf8');

function between(start: string, end: string): string {
  const from = doc.indexOf(start);
  const to = doc.indexOf(end);
  assert.ok(from >= 0 && to > from, `docs/embedding.md has ${start} … ${end}`);
  return doc.slice(from + start.length, to);
}

/** The ```sh blocks of the walk-through, in order, as one script. */
function walkthroughScript(): string {
  const blocks = [...between('<!-- curl-walkthrough:start -->', '<!-- curl-walkthrough:end -->').matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]);
  assert.ok(blocks.length >= 7, 'create, retrieve, public verify, verify, list, cancel, error');
  return blocks.join('\n');
}

function has(tool: string): boolean {
  try {
    execFileSync(tool, ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

function listen(server: Server): Promise<string> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as { port: number }).port}`)));
}

let stack: Stack;

describe('docs/embedding.md', { timeout: 120_000 }, () => {
  before(async () => {
    stack = await startStack();
  });
  after(async () => {
    await stack?.stop();
  });

  test('the curl walk-through runs as written against the gateway', async () => {
    for (const tool of ['bash', 'curl', 'jq']) assert.ok(has(tool), `the walk-through needs ${tool}: install it (apt-get install -y ${tool})`);
    const cwd = mkdtempSync(join(tmpdir(), 'svc-curl-'));
    try {
      const child = spawn('bash', ['-euo', 'pipefail', '-c', walkthroughScript()], {
        cwd,
        env: { ...process.env, GW: stack.gatewayUrl, SK: stack.merchant.secretKey },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      let err = '';
      child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
      child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
      const code = await new Promise<number | null>((resolve, reject) => {
        const timer = setTimeout(() => {
          child.kill('SIGKILL');
          reject(new Error(`the walk-through did not finish in 60 s:\n${out}\n${err}`));
        }, 60_000);
        child.once('exit', (c) => {
          clearTimeout(timer);
          resolve(c);
        });
      });
      assert.equal(code, 0, `${out}\n${err}`);

      const payment = JSON.parse(readFileSync(join(cwd, 'payment.json'), 'utf8'));
      assert.match(payment.id, /^pay_/);
      assert.match(payment.paymentToken, /^svc_pt_/);
      assert.equal(payment.amount, '12.50');
      // Each step printed what the docs say it prints, in order.
      const steps = [
        `"id": "${payment.id}"`, '"status": "pending"', // create
        '"orderId": "1042"', '"cart": "c_77"', // retrieve
        `"name": "Stack Shop"`, // public view
        '"amountReceived": null', // merchant verify, nothing paid
        `"ids": [\n    "${payment.id}"`, '"hasMore": false', // list
        '"status": "cancelled"', // cancel
        '"code":"payment_not_cancellable"', 'HTTP 409 application/problem+json', // cancel twice
      ];
      let at = 0;
      for (const step of steps) {
        const found = out.indexOf(step, at);
        assert.ok(found >= 0, `the output shows ${step} after position ${at}:\n${out}`);
        at = found;
      }
      // The public view printed by the walk-through carries no merchant-only data.
      const publicView = await (
        await fetch(`${stack.gatewayUrl}/api/public/payments/${payment.id}/verify`, { method: 'POST', headers: { 'x-service-payment-token': payment.paymentToken } })
      ).json();
      assert.equal(publicView.orderId, undefined);
      assert.equal(publicView.metadata, undefined);
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  });

  describe('the CSP and SRI advice, in Chromium', () => {
    let browser: Browser;
    let cdn: Server;
    let site: Server;
    let siteUrl: string;

    before(async () => {
      const bundle = readFileSync(join(root, 'dist/svc-checkout.js'));
      // A CDN on another origin: serves the bundle with CORS, as jsDelivr and unpkg do.
      cdn = createServer((req, res) => {
        if (req.url !== '/svc-checkout.js') return void res.writeHead(404).end();
        res.writeHead(200, { 'content-type': 'text/javascript', 'access-control-allow-origin': '*' }).end(bundle);
      });
      const cdnUrl = await listen(cdn);
      const integrity = execFileSync(process.execPath, [join(root, 'scripts/sri.mjs')], { encoding: 'utf8' }).trim();
      assert.match(integrity, /^sha384-[A-Za-z0-9+/]{64}$/);

      site = createServer();
      siteUrl = await listen(site);
      const csp = between('<!-- csp:start -->', '<!-- csp:end -->')
        .match(/Content-Security-Policy: (.+)/)![1]!
        .replaceAll('https://cdn.jsdelivr.net', cdnUrl)
        .replaceAll('https://pay.example.com', stack.gatewayUrl)
        .replaceAll('https://shop.example', siteUrl);
      assert.doesNotMatch(csp, /unsafe/);
      const page = (hash: string) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title>
<script src="${cdnUrl}/svc-checkout.js" integrity="${hash}" crossorigin="anonymous" defer></script></head>
<body><svc-checkout session-url="/checkout/session" session-data='{"orderId":"1042"}'></svc-checkout></body></html>`;

      site.on('request', async (req, res) => {
        const headers = { 'content-security-policy': csp, 'content-type': 'text/html' };
        if (req.method === 'GET' && req.url === '/') return void res.writeHead(200, headers).end(page(integrity));
        if (req.method === 'GET' && req.url === '/tampered') return void res.writeHead(200, headers).end(page(`sha384-${'A'.repeat(64)}`));
        if (req.method === 'POST' && req.url === '/checkout/session') {
          // The session contract as docs/embedding.md §3 writes it, with its minimal answer.
          const problem = (status: number, code: string, detail: string) =>
            res.writeHead(status, { 'content-type': 'application/problem+json', 'cache-control': 'no-store' }).end(JSON.stringify({ type: 'about:blank', title: detail, status, detail, code }));
          if (req.headers.origin !== siteUrl) return problem(403, 'origin_not_allowed', 'This origin may not create checkout sessions.');
          let body = '';
          for await (const chunk of req) body += chunk;
          if (JSON.parse(body).orderId !== '1042') return problem(404, 'order_not_found', 'No such order.');
          const created = await fetch(`${stack.gatewayUrl}/api/v1/payments`, {
            method: 'POST',
            headers: { authorization: `Bearer ${stack.merchant.secretKey}`, 'content-type': 'application/json' },
            body: JSON.stringify({ amount: '49.00', currency: 'USDC', orderId: '1042' }),
          });
          const payment = await created.json();
          if (created.status !== 201) return problem(502, 'gateway_unavailable', 'The payment service could not be reached.');
          res.writeHead(201, { 'content-type': 'application/json', 'cache-control': 'no-store' });
          return void res.end(JSON.stringify({ paymentId: payment.id, paymentToken: payment.paymentToken, baseUrl: stack.gatewayUrl }));
        }
        res.writeHead(404).end();
      });
      browser = await launchChromium();
    });

    after(async () => {
      await browser?.close().catch(() => undefined);
      cdn?.close();
      site?.close();
    });

    test('the script from another origin with its integrity hash runs under the documented policy and shows the payment', async () => {
      const w = await openWatchedPage(browser, [stack.merchant.secretKey, stack.merchant.webhookSecret]);
      await w.page.evaluateOnNewDocument(() => {
        const v: string[] = ((window as unknown as { violations: string[] }).violations = []);
        document.addEventListener('securitypolicyviolation', (e) => v.push(`${e.violatedDirective} ${e.blockedURI}`));
      });
      await w.page.goto(siteUrl);
      await w.page.waitForSelector('svc-checkout >>> [part~="qr-code"]', { visible: true });
      assert.equal(await w.page.$eval('svc-checkout >>> [part~="amount"]', (el) => el.textContent?.trim()), '49.00 USDC');
      assert.equal(await w.page.$eval('svc-checkout >>> [part~="status"]', (el) => el.textContent?.trim()), 'Waiting for payment');
      assert.deepEqual(await w.page.evaluate(() => (window as unknown as { violations: string[] }).violations), []);
      await w.settled();
      assert.deepEqual(w.problems, []);
      await w.page.close();
    });

    test('a wrong integrity hash keeps the script out (fail closed)', async () => {
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on('console', (msg) => msg.type() === 'error' && errors.push(msg.text()));
      await page.goto(`${siteUrl}/tampered`, { waitUntil: 'load' });
      assert.equal(await page.evaluate(() => customElements.get('svc-checkout') === undefined), true);
      assert.ok(errors.some((e) => /integrity/i.test(e)), errors.join('\n'));
      await page.close();
    });
  });
});
