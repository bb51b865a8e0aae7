/**
 * `svc-gateway merchant update` as a real process against the database of a running gateway: the
 * profile the API shows changes, and a new webhook URL receives the deliveries still waiting.
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../helpers/cli.js';
import { startBareGateway, type BareGateway } from '../helpers/gateway.js';
import { api, waitFor } from '../helpers/http.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';

let gw: BareGateway;
let oldEndpoint: Receiver;
let newEndpoint: Receiver;

before(async () => {
  oldEndpoint = await startReceiver();
  oldEndpoint.behave = () => 'error';
  newEndpoint = await startReceiver();
  gw = await startBareGateway({
    webhookUrl: oldEndpoint.url,
    webhooks: { retryScheduleMs: Array(40).fill(100), jitter: 0, timeoutMs: 1000, leaseMs: 2000, pollMs: 25 },
  });
});
after(async () => {
  await gw?.stop();
  await oldEndpoint?.close();
  await newEndpoint?.close();
});

const update = (...args: string[]) => runCli(['merchant', 'update', '--database', gw.dbPath, '--merchant', gw.merchant.merchantId, '--json', ...args]);

it('changes name, logo and webhook URL; waiting deliveries go to the new URL', async () => {
  const key = gw.merchant.secretKey;
  const p = (await api(gw.url, '/api/v1/payments', { key, body: { amount: '1', currency: 'SOL' } })).body;
  await waitFor(async () => oldEndpoint.deliveries.length >= 1, { what: 'a failing attempt at the old URL' });

  const shown = JSON.parse((await update('--name', 'New Name', '--logo-url', 'https://shop.example/logo.png', '--webhook-url', newEndpoint.url)).stdout);
  assert.deepEqual(shown, {
    id: gw.merchant.merchantId,
    name: 'New Name',
    logoUrl: 'https://shop.example/logo.png',
    webhookUrl: newEndpoint.url,
    webhookDisabled: false,
  });
  const merchant = (await api(gw.url, '/api/v1/merchant', { key })).body;
  assert.equal(merchant.name, 'New Name');
  assert.equal(merchant.logoUrl, 'https://shop.example/logo.png');

  const delivered = await waitFor(async () => newEndpoint.deliveries.find((d) => JSON.parse(d.body).data.payment.id === p.id), {
    what: 'the waiting payment.created at the new URL',
  });
  assert.equal(JSON.parse(delivered.body).type, 'payment.created');

  // Empty values remove the logo and the endpoint; the name stays.
  const cleared = JSON.parse((await update('--logo-url', '', '--webhook-url', '')).stdout);
  assert.equal(cleared.name, 'New Name');
  assert.equal(cleared.logoUrl, null);
  assert.equal(cleared.webhookUrl, null);
  const redeliver = await api(gw.url, `/api/v1/events/${JSON.parse(delivered.body).id}/redeliver`, { key, method: 'POST' });
  assert.equal(redeliver.body.code, 'webhook_not_configured');
});

it('refuses bad input with exit code 2 and changes nothing', async () => {
  for (const args of [[], ['--webhook-url', 'ftp://x.example/hook']]) {
    await assert.rejects(update(...args), (e: { code: number; stderr: string }) => {
      assert.equal(e.code, 2, e.stderr);
      return true;
    });
  }
  await assert.rejects(runCli(['merchant', 'update', '--database', gw.dbPath, '--merchant', 'mer_nope', '--name', 'X']), (e: { code: number; stderr: string }) => {
    assert.equal(e.code, 2);
    assert.match(e.stderr, /no merchant mer_nope/);
    return true;
  });
  assert.equal((await api(gw.url, '/api/v1/merchant', { key: gw.merchant.secretKey })).body.name, 'New Name');
});
