// Server SDK costs, run with: node --import tsx bench/server.ts
//  - webhooks.verify on a typical event body (one secret, and two during a rotation);
//  - the client's own overhead per call against a local HTTP server answering at once (keep-alive fetch).
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SvcClient, webhooks } from '../src/server/index.js';

const secret = `whsec_${randomBytes(32).toString('base64')}`;
const old = `whsec_${randomBytes(32).toString('base64')}`;
const payment = { object: 'payment', id: 'pay_01', status: 'confirmed', amount: '12.50', currency: 'USDC', metadata: { cart: 'c-1' }, sequence: 3 };
const event = { object: 'event', id: 'evt_01', type: 'payment.confirmed', timestamp: new Date().toISOString(), livemode: false, data: { payment } };

function rate(label: string, n: number, fn: () => void): void {
  for (let i = 0; i < 1000; i++) fn(); // warm up
  const t0 = performance.now();
  for (let i = 0; i < n; i++) fn();
  const ms = performance.now() - t0;
  console.log(`${label}: ${Math.round(n / (ms / 1000)).toLocaleString('en')} /s (${((ms * 1000) / n).toFixed(1)} µs each)`);
}

const one = webhooks.sign(event, secret);
rate('webhooks.verify, 1 secret', 50_000, () => webhooks.verify(one.body, one.headers, secret));
const rotated = webhooks.sign(event, [secret, old]);
rate('webhooks.verify, 2 signatures x 2 secrets', 50_000, () => webhooks.verify(rotated.body, rotated.headers, [old, secret]));

const body = JSON.stringify(payment);
const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(body));
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const client = new SvcClient({ apiKey: 'svc_test_bench', baseUrl: url });
const raw = async () => (await fetch(`${url}/api/v1/payments/pay_01`)).json();
for (const [label, call] of [['bare fetch', raw], ['client.payments.retrieve', () => client.payments.retrieve('pay_01')]] as const) {
  for (let i = 0; i < 200; i++) await call();
  const n = 3000;
  const t0 = performance.now();
  for (let i = 0; i < n; i++) await call();
  console.log(`${label}, sequential: ${((performance.now() - t0) / n).toFixed(3)} ms per call`);
}
server.close();
