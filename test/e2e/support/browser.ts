// Puppeteer helpers for the end-to-end test: Debian's Chromium, a page that records the element's events,
// every request and response it sees (to prove no secret reaches the browser), and its console errors.
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import jsQRModule from 'jsqr';

// jsqr is CommonJS with `exports.default`: under NodeNext the default import is the module object.
const jsQR = jsQRModule.default;

export const ARTIFACTS = new URL('../../../.artifacts/e2e/', import.meta.url).pathname;

export function launchChromium(): Promise<Browser> {
  return puppeteer.launch({
    executablePath: process.env.CHROME_PATH || '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
}

export interface WatchedPage {
  page: Page;
  /** Every problem seen so far: a secret or Authorization header in a request, a secret in a response, a page error. */
  problems: string[];
  /** Resolves once every response body the page received has been read and checked. */
  settled(): Promise<void>;
}

const SECRET_KEY = /svc_(live|test)_[0-9A-Za-z]/;

/**
 * Opens a page that fails loudly on leaks. `secrets` are the merchant's actual secret key and webhook secret:
 * neither may appear in any request the browser sends or any response it receives.
 */
export async function openWatchedPage(browser: Browser, secrets: string[], timeoutMs = 30_000): Promise<WatchedPage> {
  const page = await browser.newPage();
  page.setDefaultTimeout(timeoutMs);
  page.setDefaultNavigationTimeout(timeoutMs);
  const problems: string[] = [];
  const reads: Promise<void>[] = [];
  const leaks = (text: string) => SECRET_KEY.test(text) || secrets.some((s) => text.includes(s));

  page.on('request', (req) => {
    const headers = req.headers();
    if ('authorization' in headers) problems.push(`Authorization header sent to ${req.url()}`);
    const seen = [req.url(), JSON.stringify(headers), req.postData() ?? ''].join('\n');
    if (leaks(seen)) problems.push(`secret in the request to ${req.url()}`);
  });
  page.on('response', (res) => {
    const type = res.headers()['content-type'] ?? '';
    if (!/json|html|javascript|text/.test(type) || res.status() >= 300 && res.status() < 400) return;
    reads.push(
      res.text().then(
        (body) => {
          if (leaks(body)) problems.push(`secret in the response from ${res.url()}`);
        },
        () => undefined, // the page navigated away before the body was read
      ),
    );
  });
  page.on('pageerror', (err) => problems.push(`page error: ${err instanceof Error ? err.message : String(err)}`));
  page.on('console', (msg) => {
    // A CSP violation shows up here; a missing favicon is the only error a plain shop may have.
    if (msg.type() === 'error' && !msg.location()?.url?.endsWith('/favicon.ico')) problems.push(`console error: ${msg.text()}`);
  });
  // The element's events bubble and are composed: record them from the document, before any page script runs.
  await page.evaluateOnNewDocument(() => {
    const w = window as unknown as { svcEvents: string[] };
    w.svcEvents = [];
    for (const type of ['svc-session', 'svc-status', 'svc-confirmed', 'svc-expired', 'svc-error', 'svc-close']) {
      document.addEventListener(type, () => w.svcEvents.push(type), true);
    }
  });
  return { page, problems, settled: async () => void (await Promise.all(reads)) };
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const path = join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

/**
 * Reads the QR code the element drew (an SVG in its shadow root) the way a phone would: rasterised on a
 * canvas, then decoded by jsQR. Returns the decoded text.
 */
export async function decodeQr(page: Page): Promise<string | null> {
  const size = 400;
  const base64 = await page.evaluate(async (size) => {
    const svg = document.querySelector('svc-checkout')!.shadowRoot!.querySelector('[part~="qr-code"]')!;
    const img = new Image();
    img.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(new XMLSerializer().serializeToString(svg))}`;
    await img.decode();
    const canvas = document.createElement('canvas');
    canvas.width = canvas.height = size;
    const ctx = canvas.getContext('2d')!;
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, size, size);
    // A quiet zone around the code, as a printed QR has.
    ctx.drawImage(img, size * 0.1, size * 0.1, size * 0.8, size * 0.8);
    const rgba = ctx.getImageData(0, 0, size, size).data;
    let binary = '';
    for (let i = 0; i < rgba.length; i += 0x8000) binary += String.fromCharCode(...rgba.subarray(i, i + 0x8000));
    return btoa(binary);
  }, size);
  return jsQR(new Uint8ClampedArray(Buffer.from(base64, 'base64')), size, size)?.data ?? null;
}
