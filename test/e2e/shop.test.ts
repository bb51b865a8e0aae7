// The whole product, end to end, as a newcomer meets it: `npm start` (localnet, gateway on SQLite, demo shop)
// from a fresh data directory, then Chromium buys from the shop, the <svc-checkout> element shows the Solana Pay
// QR code, the customer pays from the local chain, the element shows the payment confirmed and the order page
// shows "Paid" once the signed webhook has reached the shop. Desktop, phone, and the modal (mode=button).
// Nothing here is mocked: real processes, real HTTP, real signed transactions, real Chromium.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { startDemo, isListening, freshDataDir, removeDataDir, type DemoProcess } from './support/demo-process.js';
import { launchChromium, openWatchedPage, screenshot, decodeQr, type WatchedPage } from './support/browser.js';

const IPHONE_UA = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const CHECKOUT = 'svc-checkout';
const part = (name: string) => `${CHECKOUT} >>> [part~="${name}"]`;

let demo: DemoProcess;
let restarted: DemoProcess | undefined;
let dataDir: string;
let browser: Browser;
const paidOrders: string[] = [];
const pages: WatchedPage[] = [];

async function watched(): Promise<WatchedPage> {
  const w = await openWatchedPage(browser, demo.secrets);
  pages.push(w);
  return w;
}

/** Shop → two mugs and a tee in the cart → "Check out". Returns the order id from the checkout page's URL. */
async function buy(page: Page, query = ''): Promise<string> {
  await page.goto(`${demo.shopUrl}/${query}`);
  await page.waitForSelector('button[data-product="mug"]');
  await page.click('button[data-product="mug"]');
  await page.click('button[data-product="mug"]');
  await page.click('button[data-product="tee"]');
  await page.waitForFunction(() => document.getElementById('cart-total')?.textContent === '49.00');
  await Promise.all([page.waitForNavigation(), page.click('#checkout')]);
  const url = new URL(page.url());
  assert.equal(url.pathname, '/checkout.html');
  const orderId = url.searchParams.get('order');
  assert.ok(orderId, 'the checkout page names the order');
  // The summary shows the order as the server priced it: 2 × 12.50 + 24.00.
  await page.waitForFunction(() => document.getElementById('summary-total')?.textContent === '49.00 USDC');
  return orderId;
}

/** The element's pay view: the QR code encodes the Solana Pay URL of this order's payment. */
async function expectQr(page: Page): Promise<string> {
  await page.waitForSelector(part('qr-code'), { visible: true });
  const amount = await page.$eval(part('amount'), (el) => el.textContent?.trim());
  assert.match(amount ?? '', /^49(\.00?)? USDC$/);
  const status = await page.$eval(part('status'), (el) => el.textContent?.trim());
  assert.equal(status, 'Waiting for payment');
  const decoded = await decodeQr(page);
  assert.ok(decoded, 'the QR code decodes');
  const href = await page.$eval(part('open-wallet'), (el) => el.getAttribute('href'));
  assert.equal(decoded, href, 'the QR code and the "Open in wallet" link carry the same URL');
  const url = new URL(decoded);
  assert.equal(url.protocol, 'solana:');
  assert.match(url.searchParams.get('amount') ?? '', /^49(\.0{1,6})?$/);
  assert.match(url.searchParams.get('spl-token') ?? '', /^[1-9A-HJ-NP-Za-km-z]{32,44}$/, 'a USDC payment names its mint');
  assert.match(url.searchParams.get('reference') ?? '', /^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
  return decoded;
}

/** The dev page's "Pay as a customer" button: the localnet's funded payer signs and sends the transfer. */
async function payAsCustomer(orderId: string): Promise<void> {
  const { page } = await watched();
  await page.goto(`${demo.shopUrl}/dev.html`);
  const button = `button[data-order="${orderId}"]`;
  await page.waitForSelector(button);
  await page.click(button);
  await page.waitForFunction(() => /^Sent \w+ for /.test(document.getElementById('dev-result')?.textContent ?? ''));
  await page.close();
}

async function expectConfirmed(page: Page): Promise<void> {
  await page.waitForFunction(
    (tag) => (document.querySelector(tag) as HTMLElement & { status: string | null })?.status === 'confirmed'
      && (window as unknown as { svcEvents: string[] }).svcEvents.includes('svc-confirmed'),
    {},
    CHECKOUT,
  );
  await page.waitForSelector(`${part('final')}.ok`, { visible: true });
  assert.equal(await page.$eval(part('status'), (el) => el.textContent?.trim()), 'Payment confirmed');
  assert.equal(await page.$(part('qr-code')), null, 'the QR code is gone once paid');
}

/** The order page shows the shop's own record: "Paid" appears only after the verified payment.confirmed webhook. */
async function expectOrderPaid(page: Page, orderId: string): Promise<void> {
  await page.waitForSelector('#after-payment:not([hidden]) #order-link', { visible: true });
  await Promise.all([page.waitForNavigation(), page.click('#order-link')]);
  assert.equal(new URL(page.url()).searchParams.get('order'), orderId);
  await page.waitForSelector('#order-status[data-status="paid"]');
  paidOrders.push(orderId);
  assert.equal(await page.$eval('#order-status', (el) => el.textContent), 'Paid');
  assert.match(await page.$eval('#order-signature', (el) => el.textContent ?? ''), /^Transaction: [1-9A-HJ-NP-Za-km-z]{64,88}$/);
}

describe('demo shop end to end (npm start + Chromium)', { timeout: 300_000 }, () => {
  before(async () => {
    dataDir = freshDataDir();
    demo = await startDemo({ dataDir });
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close().catch(() => undefined);
    demo?.destroy();
    restarted?.destroy();
    if (dataDir) removeDataDir(dataDir);
  });

  test('desktop: shop → cart → checkout → QR → pay → confirmed → order paid', async () => {
    const w = await watched();
    const { page } = w;
    await page.setViewport({ width: 1100, height: 1000 });
    const orderId = await buy(page);
    await expectQr(page);
    // On a desktop the Phantom and Solflare browse links wait behind "Other wallets".
    assert.deepEqual(await page.$$eval(part('browse-link'), (els) => els.map((a) => a.checkVisibility())), [false, false]);
    await screenshot(page, 'desktop-checkout');
    // The README's picture (docs/images/checkout.png): a narrower window, at twice the pixel density.
    await page.setViewport({ width: 960, height: 900, deviceScaleFactor: 2 });
    await screenshot(page, 'readme-checkout');
    await page.setViewport({ width: 1100, height: 1000 });

    // Before the payment the shop's order is still open: the browser's redirect is no proof of payment.
    const before = await (await fetch(`${demo.shopUrl}/api/orders/${orderId}`)).json();
    assert.equal(before.status, 'awaiting_payment');

    await payAsCustomer(orderId);
    await expectConfirmed(page);
    await screenshot(page, 'desktop-confirmed');
    await expectOrderPaid(page, orderId);
    await screenshot(page, 'desktop-order-paid');
  });

  test('phone (390×844, touch): wallet links up front, no sideways scrolling, paid', async () => {
    const { page } = await watched();
    await page.setUserAgent(IPHONE_UA);
    await page.setViewport({ width: 390, height: 844, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
    const orderId = await buy(page);
    await expectQr(page);
    const links = await page.$$eval(part('browse-link'), (els) => els.map((a) => ({ text: a.textContent?.trim(), href: a.getAttribute('href') })));
    assert.deepEqual(links.map((l) => l.text), ['Phantom', 'Solflare']);
    assert.ok(links[0]!.href!.startsWith(`https://phantom.app/ul/browse/${encodeURIComponent(page.url())}`), links[0]!.href!);
    assert.ok(links[1]!.href!.startsWith('https://solflare.com/ul/v1/browse/'), links[1]!.href!);
    assert.deepEqual(await page.$$eval(part('browse-link'), (els) => els.map((a) => a.checkVisibility())), [true, true]);
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), true, 'nothing overflows the phone screen');
    await screenshot(page, 'mobile-checkout');

    await payAsCustomer(orderId);
    await expectConfirmed(page);
    await screenshot(page, 'mobile-confirmed');
    await expectOrderPaid(page, orderId);
  });

  test('modal (mode=button): open the dialog → QR → pay → confirmed → close → order paid', async () => {
    const { page } = await watched();
    await page.setViewport({ width: 1100, height: 900 });
    const orderId = await buy(page, '?mode=button');
    assert.equal(new URL(page.url()).searchParams.get('mode'), 'button');
    await page.waitForSelector(part('trigger'), { visible: true });
    assert.equal(await page.$(part('qr-code')), null, 'nothing is loaded before the customer opens the dialog');

    await page.click(part('trigger'));
    await page.waitForSelector(`${part('dialog')}[open]`);
    await expectQr(page);
    await screenshot(page, 'modal-checkout');

    await payAsCustomer(orderId);
    await expectConfirmed(page);
    await screenshot(page, 'modal-confirmed');
    await page.click(`${part('action')}[data-action="close"]`);
    await page.waitForFunction(() => (window as unknown as { svcEvents: string[] }).svcEvents.includes('svc-close'));
    assert.equal(await page.$(`${part('dialog')}[open]`), null, 'the dialog closed');
    await expectOrderPaid(page, orderId);
  });

  test('no secret key, webhook secret or Authorization header ever reached the browser', async () => {
    assert.ok(pages.length >= 6, 'the flows above ran');
    for (const w of pages) await w.settled();
    assert.deepEqual(pages.flatMap((w) => w.problems), []);
  });

  test('Ctrl-C (SIGINT) stops the whole tree cleanly and frees every port', async () => {
    const { code, signal } = await demo.interrupt();
    assert.equal(signal, null);
    assert.equal(code, 0, demo.output());
    assert.doesNotMatch(demo.output(), /exited \(|npm start failed/);
    for (const port of demo.ports) assert.equal(await isListening(port), false, `port ${port} is free`);
  });

  test('a restart on the same data keeps the orders, the payments and the merchant', async () => {
    assert.ok(paidOrders.length > 0, 'the flows above paid an order');
    const merchantFile = join(dataDir, 'demo', 'merchant.json');
    const merchantBefore = readFileSync(merchantFile, 'utf8');
    restarted = await startDemo({ dataDir, ports: demo.ports });
    assert.equal(readFileSync(merchantFile, 'utf8'), merchantBefore, 'the test merchant is made once');
    const { secretKey } = JSON.parse(merchantBefore) as { secretKey: string };
    for (const orderId of paidOrders) {
      const order = await (await fetch(`${restarted.shopUrl}/api/orders/${orderId}`)).json();
      assert.equal(order.status, 'paid');
      const page = await (await fetch(`${restarted.gatewayUrl}/api/v1/payments?orderId=${orderId}&status=confirmed`, { headers: { authorization: `Bearer ${secretKey}` } })).json();
      assert.equal(page.data.length, 1, `the gateway still has the confirmed payment of ${orderId}`);
      assert.equal(page.data[0].id, order.paymentId);
    }
    const { code } = await restarted.interrupt();
    assert.equal(code, 0, restarted.output());
  });
});
