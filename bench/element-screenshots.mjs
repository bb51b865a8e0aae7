#!/usr/bin/env node
// Screenshots of <svc-checkout> for docs/element.md, taken in Chromium on a real payment:
// light, dark, mobile width (Arabic, right to left), confirmed, and the modal. Writes docs/images/element-*.png.
// Needs `npm run build` (element bundle and dist/gateway, dist/localnet).
import { startElementStack } from './element-stack.mjs';

const page = (q) => `<!doctype html><html lang="${q.get('lang') ?? 'en'}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{margin:0;padding:24px;font-family:system-ui;background:${q.get('bg') ?? '#f3f4f6'}}</style>
<script src="/dist/svc-checkout.js"></script></head>
<body><svc-checkout session-url="/test/session?amount=${q.get('amount') ?? '24.90'}&proxy=1" theme="${q.get('theme') ?? 'light'}"${q.get('mode') ? ` mode="${q.get('mode')}"` : ''}></svc-checkout></body></html>`;

const stack = await startElementStack({ pages: { '/shot.html': page } });
const out = new URL('../docs/images/', import.meta.url).pathname;
try {
  const shots = [
    { name: 'light', query: 'theme=light', width: 480 },
    { name: 'dark', query: 'theme=dark&bg=%23000', width: 480 },
    { name: 'mobile-rtl', query: 'theme=auto&lang=ar&amount=9.99', width: 375, mobile: true },
    { name: 'confirmed', query: 'theme=light&amount=5.00', width: 480, pay: true },
    { name: 'modal', query: 'theme=light&mode=button', width: 800, height: 900, modal: true },
  ];
  for (const s of shots) {
    const tab = await stack.browser.newPage();
    await tab.setViewport({ width: s.width, height: s.height ?? 1000, deviceScaleFactor: 2, isMobile: !!s.mobile, hasTouch: !!s.mobile });
    if (s.mobile) await tab.setUserAgent('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1');
    await tab.goto(`${stack.origin}/shot.html?${s.query}`);
    if (s.modal) await tab.evaluate(() => document.querySelector('svc-checkout').open());
    await tab.waitForFunction(() => document.querySelector('svc-checkout')?.payment);
    if (s.pay) {
      const url = await tab.evaluate(() => document.querySelector('svc-checkout').payment.url);
      await stack.command('svc-pay', { url });
      await tab.waitForFunction(() => document.querySelector('svc-checkout').status === 'confirmed', { timeout: 30000 });
    }
    await new Promise((r) => setTimeout(r, 300));
    const file = `${out}element-${s.name}.png`;
    if (s.modal) await tab.screenshot({ path: file });
    else await (await tab.$('svc-checkout')).screenshot({ path: file });
    console.log(`wrote docs/images/element-${s.name}.png`);
    await tab.close();
  }
} finally {
  await stack.close();
}
