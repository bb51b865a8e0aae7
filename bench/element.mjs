#!/usr/bin/env node
// Benchmarks of <svc-checkout> (issue 5 §8), printed as a table:
//  - gzip size of the bundles (target: svc-checkout.js ≤ 20 KB);
//  - time from the session response (its responseEnd) to the QR code painted (target ≤ 100 ms);
//  - confirmation latency seen in the browser: the wallet's sendTransaction answered → svc-confirmed
//    (target p50 ≤ 1.5 s), through the real gateway with its shipped watcher settings and a localnet
//    with mainnet-like 400 ms slots.
// Needs `npm run build`. Usage: node bench/element.mjs [--runs 20]
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

process.env.SVC_GATEWAY_DEFAULTS ??= '1';
if (process.env.SVC_GATEWAY_DEFAULTS === '0') delete process.env.SVC_GATEWAY_DEFAULTS;
process.env.SVC_SLOT_MS ??= '400';
const { startElementStack } = await import('./element-stack.mjs');

const runs = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 20;
const payRuns = Math.max(5, Math.round(runs / 2));
const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
const ms = (x) => `${x.toFixed(1)} ms`;
const rows = [];

for (const f of ['svc-checkout.js', 'svc-checkout.mjs']) {
  const gz = gzipSync(readFileSync(new URL(`../dist/${f}`, import.meta.url)), { level: 9 }).length;
  rows.push([`gzip size, ${f}`, `${gz} B`, f === 'svc-checkout.js' ? '≤ 20000 B' : '', '']);
}

const page = () => `<!doctype html><html lang="en"><head><meta charset="utf-8"><script src="/dist/svc-checkout.js"></script></head><body></body></html>`;
const stack = await startElementStack({ pages: { '/bench.html': page } });
try {
  const tab = await stack.browser.newPage();
  await tab.goto(`${stack.origin}/bench.html`);

  const qr = [];
  for (let i = 0; i < runs; i++) {
    qr.push(
      await tab.evaluate(async () => {
        performance.clearResourceTimings();
        const el = document.createElement('svc-checkout');
        el.setAttribute('session-url', '/test/session?amount=1.00');
        const painted = new Promise((resolve) => {
          const check = () => {
            if (el.shadowRoot?.querySelector('[part~="qr-code"]')) {
              // Two frames: the one that lays the QR out, and the one after it is on screen.
              requestAnimationFrame(() => requestAnimationFrame(() => resolve(performance.now())));
              return true;
            }
            return false;
          };
          const mo = new MutationObserver(() => check() && mo.disconnect());
          el.addEventListener('svc-session', () => check() || mo.observe(el.shadowRoot, { childList: true, subtree: true }), { once: true });
        });
        document.body.append(el);
        const at = await painted;
        const entry = performance.getEntriesByType('resource').find((e) => e.name.includes('/test/session'));
        el.remove();
        return at - entry.responseEnd;
      }),
    );
  }
  rows.push(['session response → QR painted, p50', ms(pct(qr, 50)), '≤ 100 ms', `${runs} runs`]);
  rows.push(['session response → QR painted, p95', ms(pct(qr, 95)), '', '']);

  // Confirmation latency with a Wallet Standard test wallet signing in the page.
  await tab.evaluate(async () => {
    const { createTestWallet, registerWallet } = await import('/test/element/support/test-wallet.js');
    const wallet = await createTestWallet({ name: 'Bench Wallet' });
    const feature = wallet.features['solana:signAndSendTransaction'];
    const send = feature.signAndSendTransaction;
    feature.signAndSendTransaction = async (...inputs) => {
      const out = await send(...inputs);
      window.sentAt = performance.now();
      return out;
    };
    registerWallet(wallet);
    window.benchWallet = wallet;
  });
  const address = await tab.evaluate(() => window.benchWallet.account.address);
  await stack.command('svc-airdrop', { address, sol: 1, usdc: 100 });
  const confirm = [];
  for (let i = 0; i < payRuns; i++) {
    confirm.push(
      await tab.evaluate(async () => {
        const el = document.createElement('svc-checkout');
        el.setAttribute('session-url', '/test/session?amount=0.50');
        document.body.append(el);
        await new Promise((r) => el.addEventListener('svc-session', r, { once: true }));
        await el.updateComplete;
        const confirmed = new Promise((r) => el.addEventListener('svc-confirmed', () => r(performance.now()), { once: true }));
        el.shadowRoot.querySelector('[part~="wallet-button"]').click();
        const at = await confirmed;
        el.remove();
        return at - window.sentAt;
      }),
    );
  }
  rows.push(['tx sent → svc-confirmed, p50', ms(pct(confirm, 50)), '≤ 1500 ms', `${payRuns} payments`]);
  rows.push(['tx sent → svc-confirmed, p95', ms(pct(confirm, 95)), '', '']);
} finally {
  await stack.close();
}

const widths = [0, 1, 2, 3].map((i) => Math.max(...rows.map((r) => r[i].length), ['measure', 'value', 'target', 'runs'][i].length));
const line = (r) => r.map((c, i) => c.padEnd(widths[i])).join('  ');
console.log(line(['measure', 'value', 'target', 'runs']));
console.log(widths.map((w) => '-'.repeat(w)).join('  '));
for (const r of rows) console.log(line(r));
