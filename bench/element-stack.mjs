// Shared by bench/element.mjs and bench/element-screenshots.mjs: the test stack of the element tests
// (real localnet + gateway, test/element/support/harness.mjs) in this process, a static server for the
// repository (dist/, test helpers) on 127.0.0.1:0, and Debian's Chromium through puppeteer-core.
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, normalize } from 'node:path';
import puppeteer from 'puppeteer-core';
import * as harness from '../test/element/support/harness.mjs';

const root = new URL('../', import.meta.url).pathname;
const TYPES = { '.js': 'text/javascript', '.mjs': 'text/javascript', '.json': 'application/json', '.html': 'text/html', '.css': 'text/css' };

export async function startElementStack({ pages = {} } = {}) {
  await harness.start();
  const server = createServer(async (req, res) => {
    const url = new URL(req.url, 'http://x');
    req.headers['x-forwarded-origin'] = `http://127.0.0.1:${server.address().port}`;
    if (/^\/(gw|log)\/|^\/test\/(session|rpc)$/.test(url.pathname)) return harness.handle(req, res);
    if (pages[url.pathname]) {
      res.writeHead(200, { 'content-type': 'text/html' }).end(pages[url.pathname](url.searchParams));
      return;
    }
    const path = normalize(decodeURIComponent(url.pathname)).replace(/^(\.\.[/\\])+/, '');
    try {
      const body = await readFile(root + path);
      res.writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'application/octet-stream' }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${server.address().port}`;
  const browser = await puppeteer.launch({
    executablePath: process.env.CHROME_PATH || '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
  return {
    origin,
    browser,
    command: (name, payload) => harness.runCommand(name, payload),
    async close() {
      await browser.close();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      await harness.stop();
    },
  };
}
